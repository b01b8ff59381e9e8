"""Reference adapter of the conformance protocol (spec/conformance.md CONF.PROTOCOL):

    dpref check-vectors DIR --cmd "python3 -m dpref.adapter"

reads one JSON request on stdin and writes one JSON response on stdout, answering every
vector with :func:`dpref.conformance.reference` (dpref through its Python package).

``--wrong-sigma F`` (tests only, CONF.NEGATIVE) makes it a deliberately wrong implementation:
every Gaussian event of a ledger is accounted with sigma * (1 + F) and Gaussian calibrators
return sigma * (1 - F); the conformance check must fail it.
"""
import argparse
import copy

from .conformance import reference, serve


def _wrong(f):
    def answer(op, input):
        if op == "account":
            ledger = copy.deepcopy(input["ledger"])
            for e in ledger["events"]:
                if e.get("mechanism") == "gaussian":
                    e["sigma"] = str(float(e["sigma"]) * (1 + f))
            return reference(op, dict(input, ledger=ledger))
        out = reference(op, input)
        if op == "calibrate" and input["function"].startswith("gaussian_sigma"):
            out = {"value": float(out["value"]) * (1 - f)}
        return out
    return answer


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m dpref.adapter", description=__doc__.split("\n\n")[0])
    ap.add_argument("--wrong-sigma", type=float, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    serve(reference if args.wrong_sigma is None else _wrong(args.wrong_sigma))


if __name__ == "__main__":
    main()
