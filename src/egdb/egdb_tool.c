/*
 * egdb_tool.c — `donjon egdb`: the command line of the endgame databases.
 *   donjon egdb build --variant V[,V...]|all --pieces N [--out DIR] [--threads N]
 *   donjon egdb probe --variant V [--path DIR]     FENs on stdin, one value a line on stdout
 */
#include "egdb_tool.h"

#include "../games/draughts.h"
#include "../tools/options.h"
#include "egdb_build.h"
#include "egdb_file.h"
#include "egdb_probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *out)
{
    fprintf(out, "usage: donjon egdb build --variant V[,V...]|all --pieces N [--out DIR] [--threads N]\n"
                 "       donjon egdb probe --variant V [--path DIR]   (FENs on stdin: 'win|draw|loss [dtz N]' or 'unknown')\n"
                 "The databases go to DIR/<variant>/ (default: the folder egdb beside this program, where the\n"
                 "engine looks). A build resumes: finished materials are read, not built again.\n");
}

static int build_main(int argc, char **argv)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    ToolOption options[] = {
        {.name = "--variant", .kind = OPTION_TEXT, .help = "checkers, russian, brazilian, international, a list with commas, or all"},
        {.name = "--pieces", .kind = OPTION_INTEGER, .help = "every material up to this many pieces (required)", .low = 2, .high = EGDB_PIECES_MAX},
        {.name = "--out", .kind = OPTION_TEXT, .help = "the set's folder (default: egdb beside this program)"},
        {.name = "--threads", .kind = OPTION_INTEGER, .help = "threads (default: every processor)", .low = 1, .high = 64,
         .integer = cpus > 0 ? (cpus > 64 ? 64 : cpus) : 1},
        {NULL},
    };
    const char *synopsis = "build --variant V[,V...]|all --pieces N [--out DIR] [--threads N]";
    if (!tool_options_parse("egdb", synopsis, options, argc, argv, 3)) return 2;
    const char *variants = tool_option(options, "--variant")->text;
    if (!variants || !tool_option(options, "--pieces")->given) {
        fprintf(stderr, "donjon egdb build: --variant and --pieces are required\n\n");
        tool_options_usage("egdb", synopsis, options, stderr);
        return 2;
    }
    char directory[4096];
    if (tool_option(options, "--out")->text)
        snprintf(directory, sizeof directory, "%s", tool_option(options, "--out")->text);
    else
        egdb_default_directory(directory, sizeof directory);
    const Variant *list[8];
    int count = 0;
    if (strcmp(variants, "all") == 0) {
        list[count++] = &variant_checkers;
        list[count++] = &variant_russian;
        list[count++] = &variant_brazilian;
        list[count++] = &variant_international;
    } else {
        char names[256];
        snprintf(names, sizeof names, "%s", variants);
        for (char *save = NULL, *name = strtok_r(names, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
            const Variant *v = variant_by_name(name);
            if (!v || !draughts_is_variant(v)) {
                fprintf(stderr, "donjon egdb build: '%s' is not a draughts variant\n", name);
                return 2;
            }
            if (count < 8) list[count++] = v;
        }
    }
    for (int i = 0; i < count; i++) {
        EgdbBuildOptions o = {list[i], (int)tool_option(options, "--pieces")->integer, directory,
                              (int)tool_option(options, "--threads")->integer, stdout};
        char err[1024];
        if (!egdb_build(&o, err, sizeof err)) {
            fprintf(stderr, "donjon egdb build: %s\n", err);
            return 1;
        }
    }
    return 0;
}

static int probe_main(int argc, char **argv)
{
    ToolOption options[] = {
        {.name = "--variant", .kind = OPTION_TEXT, .help = "the draughts variant (required)"},
        {.name = "--path", .kind = OPTION_TEXT, .help = "the set's folder (default: egdb beside this program)"},
        {NULL},
    };
    const char *synopsis = "probe --variant V [--path DIR]";
    if (!tool_options_parse("egdb", synopsis, options, argc, argv, 3)) return 2;
    const char *name = tool_option(options, "--variant")->text;
    const Variant *v = name ? variant_by_name(name) : NULL;
    if (!v || !draughts_is_variant(v)) {
        fprintf(stderr, "donjon egdb probe: --variant must name a draughts variant\n");
        return 2;
    }
    char directory[4096], message[2048];
    if (tool_option(options, "--path")->text)
        snprintf(directory, sizeof directory, "%s", tool_option(options, "--path")->text);
    else
        egdb_default_directory(directory, sizeof directory);
    EgdbSet *set = egdb_open(v, directory, message, sizeof message);
    fprintf(stderr, "%s\n", message);
    if (!set) return 1;
    char line[FEN_TEXT_MAX];
    static const char *const names[] = {"loss", "draw", "win"};
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        Position pos;
        char err[256];
        if (!v->parse_fen(v, line, &pos, err, sizeof err)) {
            printf("error %s\n", err);
            continue;
        }
        int value = egdb_probe_wdl(set, &pos);
        if (value == EGDB_UNKNOWN)
            printf("unknown\n");
        else if (value != EGDB_DRAW && egdb_has_dtz(set))
            printf("%s dtz %d\n", names[value], egdb_probe_dtz(set, &pos));
        else
            printf("%s\n", names[value]);
    }
    egdb_close(set);
    return 0;
}

int egdb_main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[2], "build") == 0) return build_main(argc, argv);
    if (argc >= 3 && strcmp(argv[2], "probe") == 0) return probe_main(argc, argv);
    bool help = argc >= 3 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0);
    usage(help ? stdout : stderr);
    return help ? 0 : 2;
}
