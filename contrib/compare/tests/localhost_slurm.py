# SPDX-License-Identifier: GPL-2.0-only
"""A one-node Slurm cluster on localhost for tests: munged, slurmctld and slurmd of
Debian's munge and slurm-wlm, each with its own key, socket, ports, state and logs in a
temporary folder, run in the foreground as children (no systemd needed), and stopped at
the end."""

import os
import shutil
import socket
import subprocess
import tempfile
import time

DAEMONS = ("munged", "mungekey", "slurmctld", "slurmd", "sbatch", "squeue", "scontrol", "sinfo")
NODE = "mlnode"


def missing_programs():
    """The programs of munge and slurm-wlm that are not installed."""
    path = os.environ.get("PATH", "") + ":/usr/sbin:/sbin"
    return [p for p in DAEMONS if shutil.which(p, path=path) is None]


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _program(name):
    return shutil.which(name, path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")


class LocalSlurm:
    """Context manager: the cluster runs inside the with-block, SLURM_CONF set."""

    def __init__(self, cpus=2, timeout=60):
        self.cpus = cpus
        self.timeout = timeout
        self.dir = None
        self.children = []
        self.saved_conf = None

    def _start(self, name, args):
        log = open(os.path.join(self.dir, f"{name}.out"), "w", encoding="utf-8")
        child = subprocess.Popen([_program(name)] + args, stdout=log, stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL, env=self.env)
        log.close()
        self.children.append((name, child))
        return child

    def logs(self):
        """The daemons' output, for a failure message."""
        text = []
        for name, _ in self.children:
            with open(os.path.join(self.dir, f"{name}.out"), encoding="utf-8",
                      errors="replace") as f:
                text.append(f"--- {name}\n{f.read()[-3000:]}")
        return "\n".join(text)

    def _write_conf(self):
        d = self.dir
        host = socket.gethostname().split(".")[0]
        conf = f"""ClusterName=mlfabric-test
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={_free_port()}
SlurmdPort={_free_port()}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={d}/munge.socket
CredType=cred/munge
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
MpiDefault=none
MailProg=/bin/true
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName={NODE} NodeHostname={host} NodeAddr=127.0.0.1 CPUs={self.cpus} State=UNKNOWN
PartitionName=sweep Nodes={NODE} Default=YES MaxTime=INFINITE State=UP
"""
        path = os.path.join(d, "slurm.conf")
        with open(path, "w", encoding="utf-8") as f:
            f.write(conf)
        return path

    def __enter__(self):
        # munged insists on a socket folder that others can enter and no one else writes.
        self.dir = tempfile.mkdtemp(prefix="mlfabric-slurm-")
        os.chmod(self.dir, 0o755)
        for sub in ("state", "spool"):
            os.makedirs(os.path.join(self.dir, sub))
        conf = self._write_conf()
        self.env = dict(os.environ, SLURM_CONF=conf)
        try:
            key = os.path.join(self.dir, "munge.key")
            subprocess.run([_program("mungekey"), "-c", "-k", key], check=True,
                           capture_output=True)
            self._start("munged", ["-F", "--force", f"--socket={self.dir}/munge.socket",
                                   f"--key-file={key}", f"--pid-file={self.dir}/munged.pid",
                                   f"--seed-file={self.dir}/munged.seed",
                                   f"--log-file={self.dir}/munged.log"])
            self._wait(lambda: os.path.exists(os.path.join(self.dir, "munge.socket")),
                       "munged's socket")
            self._start("slurmctld", ["-D", "-i"])
            self._start("slurmd", ["-D", "-N", NODE])
            self._wait(self._node_idle, f"node {NODE} idle in sinfo")
        except BaseException:
            self._stop()
            raise
        self.saved_conf = os.environ.get("SLURM_CONF")
        os.environ["SLURM_CONF"] = conf
        return self

    def _node_idle(self):
        out = subprocess.run([_program("sinfo"), "-h", "-n", NODE, "-o", "%T"],
                             capture_output=True, text=True, env=self.env, check=False)
        return out.returncode == 0 and out.stdout.strip() == "idle"

    def _wait(self, ready, what):
        deadline = time.time() + self.timeout
        while time.time() < deadline:
            for name, child in self.children:
                if child.poll() is not None:
                    raise RuntimeError(f"{name} exited with status {child.returncode}:\n"
                                       + self.logs())
            if ready():
                return
            time.sleep(0.2)
        raise RuntimeError(f"no {what} after {self.timeout} s:\n" + self.logs())

    def _stop(self):
        if any(name.startswith("slurm") and c.poll() is None for name, c in self.children):
            subprocess.run([_program("scontrol"), "shutdown"], env=self.env,
                           capture_output=True, check=False, timeout=30)
        for name, child in reversed(self.children):
            try:
                child.wait(timeout=15 if name.startswith("slurm") else 0.1)
            except subprocess.TimeoutExpired:
                child.terminate()
                try:
                    child.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    child.kill()
                    child.wait()
        self.children = []

    def __exit__(self, *exc):
        if self.saved_conf is None:
            os.environ.pop("SLURM_CONF", None)
        else:
            os.environ["SLURM_CONF"] = self.saved_conf
        self._stop()
        shutil.rmtree(self.dir, ignore_errors=True)
        return False
