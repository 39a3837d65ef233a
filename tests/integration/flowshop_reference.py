"""Independent flowshop references for the integration tests: the makespan recurrence, a
brute force over all permutations, and the plain instance format. Times are machine-major:
times[k][j] is job j on machine k; jobs are numbered from 0."""
import itertools
import os


def makespan(times, order):
    """The makespan of `order`."""
    done = [0] * len(times)
    for j in order:
        for k in range(len(times)):
            done[k] = max(done[k], done[k - 1] if k else 0) + times[k][j]
    return done[-1]


def brute_force(times):
    """The best makespan over all permutations."""
    return min(makespan(times, order) for order in itertools.permutations(range(len(times[0]))))


def write_instance(folder, name, times):
    """Writes the plain format (`n m`, then m rows of n times); returns the path."""
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write(f"{len(times[0])} {len(times)}\n")
        for row in times:
            f.write(" ".join(map(str, row)) + "\n")
    return path


def read_instance(path):
    """The times of a plain-format file."""
    with open(path) as f:
        numbers = list(map(int, f.read().split()))
    n, m = numbers[0], numbers[1]
    return [numbers[2 + k * n: 2 + (k + 1) * n] for k in range(m)]
