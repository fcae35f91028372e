/* dxp.h — DXP (DamExchange) over TCP: Donjon plays draughts games against another program (`donjon dxp …`; protocol.md). */
#ifndef DONJON_DXP_H
#define DONJON_DXP_H
/* Runs a DXP session from the command-line arguments after `dxp`; returns the exit status:
 * 0 when the session ended as agreed, 1 when the connection or the peer failed, 2 on bad arguments. */
int dxp_main(int argc, char **argv);
#endif
