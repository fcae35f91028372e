/* main.c — process entry: initialise the game tables, then serve a protocol: UCI on stdin by
 * default, `hub` for the Hub protocol, `dxp …` for DXP over TCP. */
#include "dxp.h"
#include "game.h"
#include "hub.h"
#include "protocol.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    /* a GUI that closes its end of the pipe must not kill the engine mid-write */
    signal(SIGPIPE, SIG_IGN);
    games_init();
    if (argc > 1 && strcmp(argv[1], "hub") == 0) return hub_loop(stdin);
    if (argc > 1 && strcmp(argv[1], "dxp") == 0) return dxp_main(argc - 2, argv + 2);
    return protocol_loop(stdin);
}
