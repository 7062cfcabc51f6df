/* lit_model: the names of models, phases and quantifiers as written. */
#include <string.h>

#include "litmus/litmus_int.h"

const char *const lit_model_names[LIT_NMODELS] = {
    "strict", "epoch", "bepoch", "scoped", "bscoped", "hw",
};

const char *const lit_phase_names[4] = {
    "final", "crash", "recovered", "noerror",
};

const char *const lit_quant_names[3] = {"exists", "~exists", "forall"};

int lit_model_from_name(const char *name)
{
    for (int m = 0; m < LIT_NMODELS; m++)
        if (!strcmp(name, lit_model_names[m]))
            return m;
    return -1;
}
