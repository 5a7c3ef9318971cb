"""Train the networks the package ships: the Bayesian tools' default settings for the common model families.

    .venv/bin/python scripts/train_networks.py            # train what is missing into tools/methods/bayes/trained/
    .venv/bin/python scripts/train_networks.py --check    # exit 1 if one is missing or stale

``bayes.icl_posterior`` and ``bayes.pfn_regression`` train a network for their settings on first use (2–3 minutes of
one core each) and keep it in ``cache_dir``.  For the settings most calls use, the package ships the network, in
the cache's own form (a state dict read with ``weights_only=True`` and a ``.json`` with its settings, training time
and loss history), so a first call loads it: ``load_or_train`` looks in ``cache_dir`` and then in the shipped folder.
A network whose settings change (a new version of a tool's network) no longer matches its file; ``--check`` says
so, and this script trains its replacement.  Training is deterministic for a given torch build (one thread, the
settings' seed), so the files are what a first call would have trained on this machine's torch (2.13.0, CPU).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def shipped() -> list[tuple[str, object]]:
    """(description, a function that returns the settings and trains or loads the network into the folder)."""
    from cmbagent.tools.methods.bayes import GPPrior
    from cmbagent.tools.methods.bayes._simulators import ModelFamily

    icl = [ModelFamily("linear_regression", n_features=1), ModelFamily("linear_regression", n_features=2),
           ModelFamily("logistic_regression", n_features=1), ModelFamily("logistic_regression", n_features=2),
           ModelFamily("gaussian_mixture_1d")]
    out: list[tuple[str, object]] = [(f"icl_posterior {f.name}, {f.n_features} input(s)", f) for f in icl]
    out.append(("pfn_regression, one input, the tool's GP prior", GPPrior(length_scale=0.2, output_scale=1.0,
                                                                          noise=0.1, dim=1)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check that every shipped network is present")
    args = parser.parse_args()
    import torch

    from cmbagent.tools.methods.bayes._io import SHIPPED, network_file
    from cmbagent.tools.methods.bayes.icl_posterior import trained_network
    from cmbagent.tools.methods.bayes.pfn_regression import trained_pfn

    torch.set_num_threads(1)
    SHIPPED.mkdir(exist_ok=True)
    missing = 0
    from cmbagent.tools.methods.bayes import GPPrior
    from cmbagent.tools.methods.bayes.icl_posterior import network_settings
    from cmbagent.tools.methods.bayes.pfn_regression import pfn_settings

    for what, subject in shipped():
        started = time.perf_counter()
        if args.check:
            kind, settings = (("pfn", pfn_settings(subject)) if isinstance(subject, GPPrior)
                              else ("icl", network_settings(subject)))
            present = network_file(kind, settings, SHIPPED).is_file()
            missing += not present
            print(f"{'ok' if present else 'MISSING'}  {what}")
            continue
        if isinstance(subject, GPPrior):
            net = trained_pfn(subject, cache_dir=str(SHIPPED))
        else:
            net = trained_network(subject, n_min=10, n_max=60, train_steps=3000, batch_size=64, width=64, seed=0,
                                  cache_dir=str(SHIPPED))
        print(f"{'kept' if net.cached else 'trained'}  {what}: {net.path.name} ({time.perf_counter() - started:.0f} s)")
    if missing:
        raise SystemExit(f"{missing} shipped network(s) missing: run scripts/train_networks.py")


if __name__ == "__main__":
    main()
