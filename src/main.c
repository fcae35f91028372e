/* main.c — process entry: initialise the game tables, then serve the protocol on stdin. */
#include "game.h"
#include "protocol.h"

#include <signal.h>
#include <stdio.h>

int main(void)
{
    /* a GUI that closes its end of the pipe must not kill the engine mid-write */
    signal(SIGPIPE, SIG_IGN);
    games_init();
    return protocol_loop(stdin);
}
