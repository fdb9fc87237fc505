#!/usr/bin/env python3
"""The shrinking challenge problems under Hypothesis, with the definitions GraphFuzz uses.

For each problem and seed it runs a @given test with that seed, counts the generator runs that
happen after the first failure (the shrink's evaluations; Hypothesis' final replay of the shrunk
example is not counted) and checks whether the reported example is the known minimum.

    python3 hypothesis_challenges.py [--seeds N] [--first K] [--per-seed] [problem ...]

Prints one tab-separated line per problem: name, minimal/found, mean evaluations. `--first K`
starts at seed K (seeds K...N); `--per-seed` also prints `seed<TAB>name<TAB>found<TAB>minimal<TAB>
evaluations` for every seed as it finishes, so that a run cut short still leaves its seeds.
"""
import argparse
import sys

import hypothesis
from hypothesis import HealthCheck, Phase, assume, given, seed, settings
from hypothesis import strategies as st

INT64 = st.integers(-(2**63), 2**63 - 1)
INT16 = st.integers(-(2**15), 2**15 - 1)


def wrap16(value):
    return ((value + 2**15) % 2**16) - 2**15


class Counter:
    """Counts generator runs; remembers when the first failure happened and the last failing value."""

    def __init__(self):
        self.runs = 0
        self.first_failure = None
        self.failing_runs = []
        self.last_failing = None

    def counting(self, strategy):
        @st.composite
        def counted(draw):
            self.runs += 1
            return draw(strategy)

        return counted()

    def fail(self, value):
        if self.first_failure is None:
            self.first_failure = self.runs
        self.failing_runs.append(self.runs)
        self.last_failing = value


def bound5():
    bounded = st.lists(INT16, max_size=1).filter(lambda xs: wrap16(sum(xs)) < 256)
    problems = st.tuples(bounded, bounded, bounded, bounded, bounded)

    def holds(p):
        return wrap16(sum(x for xs in p for x in xs)) < 5 * 256

    def minimal(p):
        singles = sorted(xs[0] for xs in p if len(xs) == 1)
        return sum(1 for xs in p if not xs) == 3 and singles == [-32768, -1]

    return problems, holds, minimal


def large_union_list():
    return (st.lists(st.lists(INT64)), lambda ls: len(set(x for xs in ls for x in xs)) < 5,
            lambda ls: len(ls) == 1 and sorted(ls[0]) == [-2, -1, 0, 1, 2])


def reverse():
    return (st.lists(INT64), lambda xs: list(reversed(xs)) == xs, lambda xs: sorted(xs) == [0, 1])


def calculator():
    expression = st.deferred(lambda: st.one_of(
        INT64, st.tuples(st.just("+"), expression, expression), st.tuples(st.just("/"), expression, expression)))

    def no_literal_zero_divisor(e):
        if isinstance(e, int):
            return True
        op, a, b = e
        if op == "/" and b == 0:
            return False
        return no_literal_zero_divisor(a) and no_literal_zero_divisor(b)

    def evaluate(e):
        if isinstance(e, int):
            return e
        op, a, b = e
        x, y = evaluate(a), evaluate(b)
        return x + y if op == "+" else x // y

    def holds(e):
        assume(no_literal_zero_divisor(e))
        try:
            evaluate(e)
        except ZeroDivisionError:
            return False
        return True

    return expression, holds, lambda e: e == ("/", 0, ("+", 0, 0))


def lengthlist():
    gen = st.integers(1, 100).flatmap(lambda n: st.lists(st.integers(0, 1000), min_size=n, max_size=n))
    return gen, lambda xs: max(xs) < 900, lambda xs: xs == [900]


def difference(minimum, passes):
    def problem():
        positive = st.integers(1, 2**31 - 1)
        return (st.tuples(positive, positive), lambda p: p[0] < 10 or passes(p[0], abs(p[0] - p[1])),
                lambda p: list(p) == minimum)
    return problem


def has_cycle(xs):
    for start in range(len(xs)):
        position, steps = xs[start], 1
        while steps <= len(xs) and position != start:
            position = xs[position]
            steps += 1
        if position == start and steps >= 2:
            return True
    return False


def index_cycle():
    def holds(xs):
        assume(all(x < len(xs) for x in xs))
        return not has_cycle(xs)
    return st.lists(st.integers(0, 20), max_size=20), holds, lambda xs: xs == [1, 0]


def parent_child():
    gen = st.integers(-10, 10).flatmap(
        lambda p: st.tuples(st.just(p), st.integers(p, 2**63 - 1), st.integers(0, 100)))
    return gen, lambda k: not (k[1] >= k[0] + 5 and k[2] >= 7), lambda k: k == (0, 5, 7)


def size_after_elements():
    def holds(pair):
        elements, size = pair
        assume(size == len(elements))
        return sum(elements) <= 10
    gen = st.tuples(st.lists(st.integers(0, 100), max_size=30), st.integers(0, 50))
    return gen, holds, lambda p: p[0] == [11] and p[1] == 1


def sorted_keys():
    @st.composite
    def keys(draw):
        result = []
        while len(result) < 10 and draw(st.booleans()):
            result.append(draw(st.integers(result[-1] if result else 0, 1000)))
        return result
    return keys(), lambda k: not (len(k) >= 3 and k[-1] - k[0] >= 100), lambda k: k == [0, 0, 100]


def filtered_indices():
    def indexes_into(xs):
        return all(x < len(xs) for x in xs)

    def has_two_cycle(xs):
        return any(xs[i] != i and xs[xs[i]] == i for i in range(len(xs)))

    gen = st.lists(st.integers(0, 10), max_size=10).filter(indexes_into)
    return gen, lambda xs: not has_two_cycle(xs), lambda xs: xs == [1, 0]


def multiple_of():
    def multiples(divisor):
        def divides(value):
            return value % divisor == 0
        return st.tuples(st.just(divisor), st.integers(0, 1000).filter(divides))

    gen = st.integers(1, 20).flatmap(multiples)
    return gen, lambda p: not (p[0] >= 2 and p[1] >= 100), lambda p: p == (2, 100)


def above_floor():
    def values(floor):
        def above(value):
            return value > floor
        return st.tuples(st.just(floor), st.lists(st.integers(0, 1000).filter(above), max_size=8))

    gen = st.integers(0, 100).flatmap(values)
    return (gen, lambda p: not (len(p[1]) >= 3 and sum(p[1]) > 500),
            lambda p: p[0] == 0 and p[1] == [1, 1, 499])


PROBLEMS = {
    "bound5": bound5,
    "large_union_list": large_union_list,
    "reverse": reverse,
    "calculator": calculator,
    "lengthlist": lengthlist,
    "difference_must_not_be_zero": difference([10, 10], lambda x, d: d != 0),
    "difference_must_not_be_small": difference([10, 6], lambda x, d: d < 1 or d > 4),
    "difference_must_not_be_one": difference([10, 9], lambda x, d: d != 1),
    "index_cycle": index_cycle,
    "parent_child": parent_child,
    "size_after_elements": size_after_elements,
    "sorted_keys": sorted_keys,
    "filtered_indices": filtered_indices,
    "multiple_of": multiple_of,
    "above_floor": above_floor,
}


def run(name, seed_value):
    """(found, minimal, evaluations) for one problem and seed."""
    gen, holds, minimal = PROBLEMS[name]()
    counter = Counter()

    @settings(database=None, max_examples=5000, deadline=None, derandomize=False, report_multiple_bugs=False,
              phases=[Phase.generate, Phase.shrink], suppress_health_check=list(HealthCheck))
    @seed(seed_value)
    @given(counter.counting(gen))
    def test(value):
        if not holds(value):
            counter.fail(value)
            raise AssertionError("falsified")

    try:
        test()
    except AssertionError:
        pass
    else:
        return False, False, 0
    # The last run is Hypothesis' replay of the shrunk example; it is not a shrink evaluation.
    evaluations = counter.runs - counter.first_failure - 1
    return True, minimal(counter.last_failing), evaluations


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--per-seed", action="store_true")
    parser.add_argument("problems", nargs="*", default=list(PROBLEMS))
    args = parser.parse_args()
    print(f"# hypothesis {hypothesis.__version__}, seeds {args.first}-{args.seeds}", flush=True)
    for name in args.problems:
        found = minimal = total = 0
        for s in range(args.first, args.seeds + 1):
            ok, is_minimal, evaluations = run(name, s)
            if args.per_seed:
                print(f"seed\t{name}\t{s}\t{int(ok)}\t{int(is_minimal)}\t{evaluations}", flush=True)
            if ok:
                found += 1
                minimal += is_minimal
                total += evaluations
        mean = total / found if found else float("nan")
        print(f"{name}\t{minimal}/{found}\t{mean:.2f}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
