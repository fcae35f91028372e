/* egdb_tool.h — `donjon egdb` (egdb_tool.c): build the endgame databases, or probe them. Takes
 * main's argc/argv (its subcommand at argv[2]) and returns the exit status. */
#ifndef DONJON_EGDB_TOOL_H
#define DONJON_EGDB_TOOL_H
int egdb_main(int argc, char **argv);
#endif
