/* bench: the Promela twin of mp.litmus (see README.md for the rules). */
#ifndef P
#define P 3
#endif
#ifndef K
#define K 2
#endif
int data[P], flag[P], ack[P];

active [2 * P] proctype T()
{
    int r1, r2, r3, r4, r6;
    if
    :: _pid >= P -> goto Pr
    :: else
    fi;
Cn: r1 = r1 + 1;
V:  r3 = flag[_pid];
    if
    :: r3 != r1 -> goto V
    :: else
    fi;
    r2 = data[_pid];
    r4 = r4 + r2;
    ack[_pid] = r1;
    if
    :: r1 < K -> goto Cn
    :: else
    fi;
    skip;                       /* exit */
    goto Done;
Pr: r6 = _pid - P;
Pl: r1 = r1 + 1;
    r2 = r1 * 3;
    data[r6] = r2;
    flag[r6] = r1;
W:  r3 = ack[r6];
    if
    :: r3 != r1 -> goto W
    :: else
    fi;
    if
    :: r1 < K -> goto Pl
    :: else
    fi;
Done:
end: false
}
