/* bench: the Promela twin of arith.litmus. One statement per gpmc
   instruction; registers are locals; `end: false` keeps a finished process
   in the state vector, as gpmc keeps a finished thread (see README.md). */
#ifndef N
#define N 4
#endif
#ifndef K
#define K 3
#endif
int x, y;

active [N] proctype T()
{
    int r0, r1, r2;
L:  r0 = x;
    r0 = r0 + _pid;
    x = r0;
    r2 = y;
    r2 = r2 ^ r1;
    y = r2;
    r1 = r1 + 1;
    if
    :: r1 < K -> goto L
    :: else
    fi;
end: false
}
