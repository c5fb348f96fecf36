# Switches off the driver's timers (ignores SIGPROF and SIGALRM, clears both itimers) and raises its
# own CPU limit as far as it may, then never returns. Only the sandbox's CPU limit for the whole run
# stops it: 4 s for an upstream check, but min(120 s, the inputs' limits) + 10 s for HumanEval+'s and
# MBPP+'s inputs (EvalPlus's budget for a whole check), which is why the test leaves it out there.
import resource
import signal


def __ENTRY__(*arguments):
    for sig in (signal.SIGPROF, signal.SIGALRM, signal.SIGXCPU):
        signal.signal(sig, signal.SIG_IGN)
    signal.setitimer(signal.ITIMER_PROF, 0)
    signal.setitimer(signal.ITIMER_REAL, 0)
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
        resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))
    except (ValueError, OSError):
        pass
    while True:
        pass
