/* version.h — the engine's version, printed by `uci`. */
#ifndef DONJON_VERSION_H
#define DONJON_VERSION_H
#define DONJON_VERSION "0.1"
#endif
