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
 *               states;
 *   fuzz_ptx    the PTX front end: the input's first line is the entry
 *               and its arguments ("k(a, b, 3)"), the rest a .ptx file
 *               that a small test launches (`from "f.ptx" LINE`); reading
 *               and lowering any bytes ends in a program or in well-formed
 *               "PATH[:LINE[:COL]]: error: …" lines; a program prints as
 *               its from clause, parses back equal, and goes through
 *               fuzz_check's pipeline.
 */
#ifndef GPMC_FUZZ_H
#define GPMC_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "litmus/litmus.h"

int fuzz_parse(const uint8_t *data, size_t size);
int fuzz_check(const uint8_t *data, size_t size);
int fuzz_ptx(const uint8_t *data, size_t size);
/* The canonical text of p (malloc'd); aborts when printing fails. */
char *fuzz_print(const LitProgram *p);
/* A failed parse's diagnostics: d->nerrors lines, each ending in a
   newline and accepted by bad (NULL, else what is wrong with the line
   from l to end); aborts naming who otherwise (fuzz_parse.c). */
void fuzz_well_formed(const char *who, const BaseDiag *d,
                      const char *(*bad)(const char *l, const char *end));
/* p printed, parsed back as path (equal both ways) and printed again (the
   same text), and every instruction formatted; aborts naming who when a
   step fails (fuzz_parse.c; fuzz_ptx uses it too). */
void fuzz_reparse(const char *who, const char *path, const LitProgram *p);
/* fuzz_check's properties on a parsed program (skipped when large). */
void fuzz_check_program(const LitProgram *p);

#endif
