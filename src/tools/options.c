/* options.c — command-line options of the tools (see options.h). */
#include "options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ToolOption *tool_option(ToolOption *options, const char *name)
{
    for (ToolOption *o = options; o->name; o++)
        if (strcmp(o->name, name) == 0) return o;
    return NULL;
}

void tool_options_usage(const char *tool, const char *synopsis, const ToolOption *options, void *stream)
{
    FILE *out = stream;
    fprintf(out, "usage: donjon %s %s\n\n", tool, synopsis);
    for (const ToolOption *o = options; o->name; o++) {
        char left[64];
        const char *arg = o->kind == OPTION_FLAG      ? ""
                          : o->kind == OPTION_INTEGER ? " N"
                          : o->kind == OPTION_NUMBER  ? " X"
                                                      : " VALUE";
        snprintf(left, sizeof left, "%s%s", o->name, arg);
        fprintf(out, "  %-22s %s\n", left, o->help);
    }
}

bool tool_options_parse(const char *tool, const char *synopsis, ToolOption *options, int argc, char **argv, int first)
{
    for (int i = first; i < argc; i++) {
        const char *name = argv[i];
        if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
            tool_options_usage(tool, synopsis, options, stdout);
            exit(0);
        }
        ToolOption *o = tool_option(options, name);
        if (!o) {
            fprintf(stderr, "donjon %s: unknown option '%s'\n\n", tool, name);
            tool_options_usage(tool, synopsis, options, stderr);
            return false;
        }
        if (o->kind == OPTION_FLAG) {
            o->given = true;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "donjon %s: %s needs a value\n", tool, name);
            return false;
        }
        const char *value = argv[++i];
        char *end;
        errno = 0;
        if (o->kind == OPTION_INTEGER) {
            long long x = strtoll(value, &end, 10);
            if (*end || end == value || errno || x < o->low || x > o->high) {
                fprintf(stderr, "donjon %s: %s needs an integer from %lld to %lld, not '%s'\n", tool, name, o->low,
                        o->high, value);
                return false;
            }
            o->integer = x;
        } else if (o->kind == OPTION_NUMBER) {
            double x = strtod(value, &end);
            if (*end || end == value || errno) {
                fprintf(stderr, "donjon %s: %s needs a number, not '%s'\n", tool, name, value);
                return false;
            }
            o->number = x;
        } else if (o->kind == OPTION_LIST) {
            const char **grown = realloc(o->list, sizeof *grown * (size_t)(o->list_count + 2));
            if (!grown) return false;
            o->list = grown;
            o->list[o->list_count++] = value;
            o->list[o->list_count] = NULL;
        } else
            o->text = value;
        o->given = true;
    }
    return true;
}

void tool_options_free(ToolOption *options)
{
    for (ToolOption *o = options; o->name; o++) free(o->list);
}
