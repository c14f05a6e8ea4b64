# Reference values for package rating's tests, made by openskill.py
# (vivekjoshy/openskill.py, PlackettLuce with its defaults).
import json
from openskill.models import PlackettLuce
m = PlackettLuce()
cases = []
def case(name, before, ranks):
    teams = [[m.rating(mu=mu, sigma=s)] for mu, s in before]
    out = m.rate(teams, ranks=ranks) if ranks else m.rate(teams)
    cases.append({"name": name, "before": [{"mu": mu, "sigma": s} for mu, s in before],
                  "ranks": ranks or list(range(1, len(before)+1)),
                  "after": [{"mu": t[0].mu, "sigma": t[0].sigma} for t in out]})
d = (25.0, 25.0/3)
for n in range(2, 7):
    case(f"{n} players, fresh, no ties", [d]*n, None)
case("3 players, two tied first", [d]*3, [1, 1, 3])
case("4 players, two tied second", [d]*4, [1, 2, 2, 4])
case("5 players, ties in unsorted order", [d]*5, [2, 1, 2, 4, 4])
case("6 players, all tied", [d]*6, [1]*6)
case("2 players, tied", [d]*2, [1, 1])
varied = [(31.2, 4.1), (22.0, 7.9), (27.5, 2.2), (18.3, 6.0)]
case("4 players, rated, unsorted ranks", varied, [3, 1, 2, 4])
case("6 players, rated, with a tie", varied + [(25.0, 8.333333333333334), (40.0, 1.5)], [6, 2, 2, 1, 4, 5])
case("2 players, upset", [(40.0, 1.5), (10.0, 3.0)], [2, 1])
json.dump({"source": "openskill.py commit 65a675d (regenerate: python3 openskill_py.gen.py with openskill on PYTHONPATH), PlackettLuce defaults: mu=25, sigma=25/3, beta=25/6, kappa=0.0001, tau=25/300",
           "cases": cases}, open("openskill_py.json", "w"), indent=1)
