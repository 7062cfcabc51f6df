/* placeholder */
#include "harness/harness.h"
int h_cmd_tune(int argc, char **argv) { (void)argc; (void)argv; return H_USAGE; }
