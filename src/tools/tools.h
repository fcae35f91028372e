/* tools.h — the programs inside the donjon binary besides the protocol: `donjon selfplay`
 * (training data), `donjon records` (training data from game records) and `donjon train`
 * (learned weights). Each takes main's argc/argv, its own options starting at argv[2], and
 * returns the exit status. */
#ifndef DONJON_TOOLS_H
#define DONJON_TOOLS_H
int selfplay_main(int argc, char **argv);
int train_main(int argc, char **argv);
int records_main(int argc, char **argv);
#endif
