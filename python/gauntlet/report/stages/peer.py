"""The peer stage of `make report`: Debian python3-opencv (tools/install_deps.sh) and the npm
peers (tools/install_peer.sh), before the stages that run them (ort and matrix)."""
import os

from gauntlet.report.logged_run import last_line, run_logged
from gauntlet.settings import ROOT


def stage_peer(args, stages):
    """Installs both; True when the npm peer is installed."""
    log = os.path.join(args.out, "logs", "install_deps-opencv.log")
    rc, secs = run_logged([os.path.join(ROOT, "tools", "install_deps.sh"), "python3-opencv"], log, 900, "install_deps")
    stages.add("install Debian python3-opencv", "ok" if rc == 0 else "failed", secs, last_line(log), log)
    log = os.path.join(args.out, "logs", "install_peer.log")
    rc, secs = run_logged([os.path.join(ROOT, "tools", "install_peer.sh"), args.peer_dir], log, 600, "install_peer")
    stages.add("install npm peer", "ok" if rc == 0 else "failed", secs, last_line(log), log)
    return rc == 0
