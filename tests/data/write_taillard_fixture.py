#!/usr/bin/env python3
"""Writes tests/data/instances/taillard_20x5_first3.txt: Taillard's ta001..ta003 in the layout
of his published files (taillard_file.hpp), generated here independently of permbb's own
generator, from the seeds and upper bounds of ../shared/notes/taillard.md. The lower bound of
each header is Taillard's (1993) bound, computed here: the largest job total, or for a machine
i its load plus the least head (sum over the machines before i) and the least tail (after i)
of any job; for ta001..ta003 it gives the values of the published file (1232, 1290, 1073).
Usage: write_taillard_fixture.py > tests/data/instances/taillard_20x5_first3.txt"""

FIRST_THREE = [(873654221, 1278), (379008056, 1359), (1866992158, 1081)]  # seed, upper bound


def generate(seed, jobs, machines):
    """Taillard's generator (taillard.md): machine-major rows of times in [1, 99]."""
    a, modulus, b, c = 16807, 2**31 - 1, 127773, 2836
    rows = []
    for _ in range(machines):
        row = []
        for _ in range(jobs):
            k = seed // b
            seed = a * (seed % b) - k * c
            if seed < 0:
                seed += modulus
            row.append(1 + int(seed / modulus * 99))
        rows.append(row)
    return rows


def lower_bound(rows):
    machines, jobs = len(rows), len(rows[0])
    best = max(sum(rows[i][j] for i in range(machines)) for j in range(jobs))
    for i in range(machines):
        head = min(sum(rows[k][j] for k in range(i)) for j in range(jobs))
        tail = min(sum(rows[k][j] for k in range(i + 1, machines)) for j in range(jobs))
        best = max(best, head + sum(rows[i]) + tail)
    return best


def main():
    for seed, upper in FIRST_THREE:
        rows = generate(seed, 20, 5)
        print("number of jobs, number of machines, initial seed, upper bound and lower bound :")
        print(f"{20:12d}{5:12d}{seed:12d}{upper:12d}{lower_bound(rows):12d}")
        print("processing times :")
        for row in rows:
            print("".join(f"{t:3d}" for t in row))


if __name__ == "__main__":
    main()
