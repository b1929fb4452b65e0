/* Runs a fuzz target's LLVMFuzzerTestOneInput over files given as arguments, without libFuzzer:
 * used by scripts/leak-check to run the shim's error paths under valgrind. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) { perror(argv[i]); return 66; }
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        fseek(f, 0, SEEK_SET);
        uint8_t *data = malloc(size > 0 ? (size_t)size : 1);
        if (!data || fread(data, 1, (size_t)size, f) != (size_t)size) { fclose(f); free(data); return 74; }
        fclose(f);
        LLVMFuzzerTestOneInput(data, (size_t)size);
        free(data);
    }
    return 0;
}
