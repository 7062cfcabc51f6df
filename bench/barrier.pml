/* bench: the Promela twin of barrier.litmus (see README.md for the rules).
   A bar.sync is one step: the arriving thread sets its bit in `wait`, and
   the last arrival clears every bit (the release). A waiting gpmc thread
   cannot step, so the statement after each barrier is guarded by GO inside
   its own atomic step: no extra step, no extra state. */
#ifndef N
#define N 6
#endif
#ifndef R
#define R 3
#endif
#define ME (1 << _pid)
#define ALL ((1 << N) - 1)
#define GO ((wait & ME) == 0)
int a[N];
int wait;                       /* bit t: thread t waits at bar.sync */

inline bar_sync()
{
    d_step {
        if
        :: (wait | ME) == ALL -> wait = 0
        :: else -> wait = wait | ME
        fi
    }
}

active [N] proctype T()
{
    int r1, r2, r3, r4;
    r1 = _pid + 1;
    r1 = r1 % N;
L:  r2 = r2 + 1;
    r3 = r3 + r2;
    a[_pid] = r3;
    bar_sync();
    d_step { GO -> r4 = a[r1] }
    r3 = r3 + r4;
    bar_sync();
    if
    :: GO && r2 < R -> goto L
    :: GO && r2 >= R
    fi;
end: false
}
