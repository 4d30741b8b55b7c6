"""A process's resident memory, from Linux's /proc: what the fuzz campaigns' RSS probe
(fuzz/rss.py) and the matrix's memory per answer (report/peers.py, docs/matrix.md "Memory")
read."""


def status_kib(pid, field):
    """A size of /proc/PID/status in KiB (VmRSS: resident now, VmHWM: the peak), or None."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def reset_peak(pid):
    """Sets the process's peak back to its resident size (clear_refs 5), so that the next peak
    read is what came after; False where the kernel does not allow it."""
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False
