/*
 * h_interrupt.c — SIGINT, as SPIN's pan takes it: the first one asks the
 * running check to stop (chk_interrupt: a flag it polls with its timeout);
 * the check ends incomplete ("interrupted") with what it explored, is
 * stored and printed with its statistics, no other check starts, the run
 * is marked `interrupted` and gpmc exits 130. The handler is reset as it
 * runs (SA_RESETHAND), so a second SIGINT kills at once; a suite's
 * workers keep theirs (a SIGINT from the terminal and the one their parent
 * forwards must not kill them in the middle of storing a check).
 */
#include <signal.h>
#include <string.h>

#include "harness/harness.h"

static void on_sigint(int sig)
{
    (void)sig;
    chk_interrupt();                    /* one lock-free atomic store */
}

void h_interrupt_catch(int once)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sa.sa_flags = once ? SA_RESETHAND : 0;  /* no SA_RESTART: poll() and
                                               read() return EINTR */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}
