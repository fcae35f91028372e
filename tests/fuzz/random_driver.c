/*
 * random_driver.c — a plain fuzz driver for machines without libFuzzer: it replays every file
 * of a corpus, then feeds seeded random mutations of them (byte flips, inserts, deletes,
 * splices) to LLVMFuzzerTestOneInput.   usage: driver CORPUS_DIR RUNS SEED
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define INPUT_LIMIT 4096
#define MAX_FILES 512

static uint64_t state;
static uint32_t next_random(void)
{
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(state >> 33);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s CORPUS_DIR RUNS SEED\n", argv[0]);
        return 2;
    }
    long runs = atol(argv[2]);
    state = (uint64_t)atol(argv[3]);
    static uint8_t corpus[MAX_FILES][INPUT_LIMIT];
    static size_t sizes[MAX_FILES];
    int files = 0;
    DIR *dir = opendir(argv[1]);
    if (!dir) {
        perror(argv[1]);
        return 2;
    }
    for (struct dirent *entry; (entry = readdir(dir)) && files < MAX_FILES;) {
        if (entry->d_name[0] == '.') continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], entry->d_name);
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        sizes[files] = fread(corpus[files], 1, INPUT_LIMIT, f);
        fclose(f);
        LLVMFuzzerTestOneInput(corpus[files], sizes[files]);
        files++;
    }
    closedir(dir);
    if (!files) return 0;
    static uint8_t input[INPUT_LIMIT];
    for (long run = 0; run < runs; run++) {
        int pick = (int)(next_random() % (uint32_t)files);
        size_t size = sizes[pick];
        memcpy(input, corpus[pick], size);
        int edits = 1 + (int)(next_random() % 8);
        for (int e = 0; e < edits; e++) {
            uint32_t kind = next_random() % 4, at = size ? next_random() % (uint32_t)size : 0;
            if (kind == 0 && size) input[at] = (uint8_t)next_random();
            if (kind == 1 && size < INPUT_LIMIT) {
                memmove(input + at + 1, input + at, size - at);
                input[at] = "0123456789/()[]*,-x :WBwbrsRSTAtaK\n"[next_random() % 35];
                size++;
            }
            if (kind == 2 && size) {
                memmove(input + at, input + at + 1, size - at - 1);
                size--;
            }
            if (kind == 3) { /* splice the tail of another corpus entry */
                int other = (int)(next_random() % (uint32_t)files);
                size_t from = sizes[other] ? next_random() % sizes[other] : 0;
                size_t length = sizes[other] - from;
                if (at + length > INPUT_LIMIT) length = INPUT_LIMIT - at;
                memcpy(input + at, corpus[other] + from, length);
                size = at + length;
            }
        }
        LLVMFuzzerTestOneInput(input, size);
    }
    printf("%ld runs over %d corpus files, seed %s: no failure\n", runs, files, argv[3]);
    return 0;
}
