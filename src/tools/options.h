/* options.h — the command-line options of the tools (`donjon selfplay`, `donjon train`):
 * `--name value` pairs checked against a table, with clear errors. */
#ifndef DONJON_TOOL_OPTIONS_H
#define DONJON_TOOL_OPTIONS_H
#include <stdbool.h>
#include <stdint.h>

typedef enum { OPTION_TEXT, OPTION_INTEGER, OPTION_NUMBER, OPTION_FLAG, OPTION_LIST } OptionKind;

typedef struct {
    const char *name;      /* "--games" */
    OptionKind kind;
    const char *help;
    const char *text;      /* OPTION_TEXT value (NULL when not given) */
    long long integer;     /* OPTION_INTEGER value */
    long long low, high;   /* OPTION_INTEGER bounds */
    double number;         /* OPTION_NUMBER value */
    bool given;
    const char **list;     /* OPTION_LIST: every value given (NULL-terminated) */
    int list_count;
} ToolOption;

/* Parses argv[first..argc) into options (terminated by a NULL name); false after printing the
 * problem and the usage to stderr. */
bool tool_options_parse(const char *tool, const char *synopsis, ToolOption *options, int argc, char **argv, int first);
void tool_options_usage(const char *tool, const char *synopsis, const ToolOption *options, void *stream);
ToolOption *tool_option(ToolOption *options, const char *name);
void tool_options_free(ToolOption *options);
#endif
