// Shim for Linux's prctl(2), which Swift cannot call (it is variadic). Part of libc6-dev:
// nothing to install.
#pragma once
#include <sys/prctl.h>
#include <signal.h>

/// The signal this process gets when the thread that started it ends (PR_SET_PDEATHSIG).
static inline int glasses_set_parent_death_signal(int signal) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
}
