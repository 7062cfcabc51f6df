/*
 * The fuzz targets (`make fuzz`, libFuzzer): each takes one input and
 * aborts when a property fails, so that libFuzzer (and, replaying
 * tests/fuzz/regress and tests/fuzz/seeds, tests/test_fuzz_replay under
 * `make test`) reports it. Properties:
 *   fuzz_parse  parsing any bytes ends in a program or in well-formed
 *               "PATH:LINE:COL: error: …" lines, never a crash; a program
 *               prints, parses back equal, and printing is a fixed point;
 *   fuzz_check  the whole pipeline with small limits (states, steps, crash
 *               depth, time: 2 s an exploration, 10 s of explorations an
 *               input, GPMC_FUZZ_INPUT_S) never fails inside gpmc, and when
 *               the default and the --naive exploration both finish they
 *               agree: the same crash-image sets, verdicts and outcome
 *               states.
 */
#ifndef GPMC_FUZZ_H
#define GPMC_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int fuzz_parse(const uint8_t *data, size_t size);
int fuzz_check(const uint8_t *data, size_t size);

#endif
