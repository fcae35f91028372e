/* main.c — process entry: initialise the game tables, then serve a protocol (UCI on stdin by
 * default, `hub` for the Hub protocol, `dxp …` for DXP over TCP) or run the one command the
 * command line names (`donjon bench`, `donjon selfplay`, `donjon --help`, ...). */
#include "dxp.h"
#include "egdb/egdb_tool.h"
#include "game.h"
#include "hub.h"
#include "protocol.h"
#include "tools/tools.h"
#include "version.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "Donjon %s: one engine for gounki, ecroulement, ecroulement-rapide, checkers, russian, brazilian,\n"
            "international and tawol, speaking a UCI-like protocol on stdin/stdout (see protocol.md).\n"
            "\n"
            "usage: donjon                          serve the protocol (type 'help' for its commands)\n"
            "       donjon hub                      serve the Hub protocol (draughts GUIs)\n"
            "       donjon dxp [options]            play DXP over TCP (donjon dxp --help)\n"
            "       donjon bench [depth] [variant]  run the benchmark and exit\n"
            "       donjon selfplay --variant V --out FILE [options]   training data from self-play\n"
            "       donjon records --variant V --pdn FILE... --out FILE [options]   training data from games\n"
            "       donjon train --variant V --data FILE... --out FILE [options]   fit weights to the data\n"
            "       donjon egdb build|probe [options]   draughts endgame databases (donjon egdb --help)\n"
            "       donjon --version                print the version\n"
            "       donjon --help                   this text\n",
            DONJON_VERSION);
}

int main(int argc, char **argv)
{
    /* a GUI that closes its end of the pipe must not kill the engine mid-write */
    signal(SIGPIPE, SIG_IGN);
    games_init();
    if (argc < 2) return protocol_loop(stdin);
    const char *command = argv[1];
    if (strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0 || strcmp(command, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(command, "--version") == 0 || strcmp(command, "-v") == 0) {
        printf("Donjon %s\n", DONJON_VERSION);
        return 0;
    }
    if (strcmp(command, "bench") == 0) {
        char line[512] = "bench";
        for (int i = 2; i < argc; i++)
            if (strlen(line) + strlen(argv[i]) + 2 < sizeof line) strcat(strcat(line, " "), argv[i]);
        return protocol_run_command(line);
    }
    if (strcmp(command, "hub") == 0) return hub_loop(stdin);
    if (strcmp(command, "dxp") == 0) return dxp_main(argc - 2, argv + 2);
    if (strcmp(command, "selfplay") == 0) return selfplay_main(argc, argv);
    if (strcmp(command, "train") == 0) return train_main(argc, argv);
    if (strcmp(command, "records") == 0) return records_main(argc, argv);
    if (strcmp(command, "egdb") == 0) return egdb_main(argc, argv);
    fprintf(stderr, "donjon: unknown command '%s'\n\n", command);
    usage(stderr);
    return 2;
}
