/*
 * harness — private header of the gpmc command line. Each command is one
 * h_cmd_* function taking the arguments after its name and returning the
 * process exit status (DESIGN section 6: 0 ok, 1 failed or incomplete
 * checks, 2 usage or input error, 3 internal error). Only gpmc.c exits.
 */
#ifndef GPMC_HARNESS_H
#define GPMC_HARNESS_H

#define GPMC_VERSION "0.1.0"

enum { H_OK = 0, H_FAIL = 1, H_USAGE = 2, H_INTERNAL = 3 };

typedef struct {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *synopsis;
} HCommand;

/* h_query.c: the read side of the results store. */
int h_cmd_query(int argc, char **argv);
int h_cmd_report(int argc, char **argv);
int h_cmd_show(int argc, char **argv);
int h_cmd_merge(int argc, char **argv);

#endif
