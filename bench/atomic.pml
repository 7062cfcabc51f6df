/* bench: the Promela twin of atomic.litmus (see README.md for the rules).
   atom.add is one indivisible step: a d_step. */
#ifndef N
#define N 4
#endif
#ifndef K
#define K 3
#endif
int cnt;

active [N] proctype T()
{
    int r0, r1, r2;
    do
    :: d_step { r0 = cnt; cnt = cnt + 1 }   /* L: atom.add r0, cnt, 1 */
       r2 = r2 + r0;
       r1 = r1 + 1;
       if
       :: r1 < K                            /* blt r1, K, L */
       :: else -> break
       fi
    od;
end: false
}
