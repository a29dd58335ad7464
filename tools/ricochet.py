#!/usr/bin/env python3
"""Ricochet Robots boards from the game's quadrants: puzzles for marbles and positions for a
peer solver.

The sixteen quadrant sides (1A .. 4D) are the game's own, as DriftingDroids records them
(smack42/DriftingDroids, src/driftingdroids/model/Board.java): each is drawn as the top-left
(NW) quarter of a 16 x 16 board, x across and y down, with walls named by the sides of a
square they stand on (N E S W) and targets by the robot that must reach them (0 red, 1 green,
2 blue, 3 yellow, -1 any robot). A board takes four of them, turned into place clockwise.

    ricochet.py puzzle GAME_ID NAME       a marbles puzzle (YAML) from a DriftingDroids game ID
    ricochet.py random N SEED DIR [ROBOTS] [QUADS]
                                          N random positions of a board (default the A sides):
                                          DIR/pNNNN.yaml for marbles and DIR/positions.txt for
                                          the peer's driver (its grid, robots, target a line)
"""

import os
import random
import sys

# name: walls (x, y, sides) and targets (x, y, robot, shape), as DriftingDroids lists them.
QUADRANTS = {
    "1A": {"walls": [(1, 0, 'E'), (4, 1, 'NW'), (1, 2, 'NE'), (6, 3, 'SE'), (0, 5, 'S'), (3, 6, 'SW'), (7, 7, 'NESW')],
           "goals": [(4, 1, 0, 'CIRCLE'), (1, 2, 1, 'TRIANGLE'), (6, 3, 3, 'HEXAGON'), (3, 6, 2, 'SQUARE')]},
    "2A": {"walls": [(3, 0, 'E'), (5, 1, 'SE'), (1, 2, 'SW'), (0, 3, 'S'), (6, 4, 'NW'), (2, 6, 'NE'), (7, 7, 'NESW')],
           "goals": [(5, 1, 1, 'HEXAGON'), (1, 2, 0, 'SQUARE'), (6, 4, 3, 'CIRCLE'), (2, 6, 2, 'TRIANGLE')]},
    "3A": {"walls": [(3, 0, 'E'), (5, 2, 'SE'), (0, 4, 'S'), (2, 4, 'NE'), (7, 5, 'SW'), (1, 6, 'NW'), (7, 7, 'NESW')],
           "goals": [(5, 2, 2, 'HEXAGON'), (2, 4, 1, 'CIRCLE'), (7, 5, 0, 'TRIANGLE'), (1, 6, 3, 'SQUARE')]},
    "4A": {"walls": [(3, 0, 'E'), (6, 1, 'SW'), (1, 3, 'NE'), (5, 4, 'NW'), (2, 5, 'SE'), (7, 5, 'SE'), (0, 6, 'S'), (7, 7, 'NESW')],
           "goals": [(6, 1, 2, 'CIRCLE'), (1, 3, 3, 'TRIANGLE'), (5, 4, 1, 'SQUARE'), (2, 5, 0, 'HEXAGON'), (7, 5, -1, 'VORTEX')]},
    "1B": {"walls": [(4, 0, 'E'), (6, 1, 'SE'), (1, 2, 'NW'), (0, 5, 'S'), (6, 5, 'NE'), (3, 6, 'SW'), (7, 7, 'NESW')],
           "goals": [(6, 1, 3, 'HEXAGON'), (1, 2, 1, 'TRIANGLE'), (6, 5, 2, 'SQUARE'), (3, 6, 0, 'CIRCLE')]},
    "2B": {"walls": [(4, 0, 'E'), (2, 1, 'NW'), (6, 3, 'SW'), (0, 4, 'S'), (4, 5, 'NE'), (1, 6, 'SE'), (7, 7, 'NESW')],
           "goals": [(2, 1, 3, 'CIRCLE'), (6, 3, 2, 'TRIANGLE'), (4, 5, 0, 'SQUARE'), (1, 6, 1, 'HEXAGON')]},
    "3B": {"walls": [(3, 0, 'E'), (1, 1, 'SW'), (6, 2, 'NE'), (2, 4, 'SE'), (0, 5, 'S'), (7, 5, 'NW'), (7, 7, 'NESW')],
           "goals": [(1, 1, 0, 'TRIANGLE'), (6, 2, 1, 'CIRCLE'), (2, 4, 2, 'HEXAGON'), (7, 5, 3, 'SQUARE')]},
    "4B": {"walls": [(4, 0, 'E'), (2, 1, 'SE'), (1, 3, 'SW'), (0, 4, 'S'), (6, 4, 'NW'), (5, 6, 'NE'), (3, 7, 'SE'), (7, 7, 'NESW')],
           "goals": [(2, 1, 0, 'HEXAGON'), (1, 3, 1, 'SQUARE'), (6, 4, 3, 'TRIANGLE'), (5, 6, 2, 'CIRCLE'), (3, 7, -1, 'VORTEX')]},
    "1C": {"walls": [(1, 0, 'E'), (3, 1, 'NW'), (6, 3, 'SE'), (1, 4, 'SW'), (0, 6, 'S'), (4, 6, 'NE'), (7, 7, 'NESW')],
           "goals": [(3, 1, 1, 'TRIANGLE'), (6, 3, 3, 'HEXAGON'), (1, 4, 0, 'CIRCLE'), (4, 6, 2, 'SQUARE')]},
    "2C": {"walls": [(5, 0, 'E'), (3, 2, 'NW'), (0, 3, 'S'), (5, 3, 'SW'), (2, 4, 'NE'), (4, 5, 'SE'), (7, 7, 'NESW')],
           "goals": [(3, 2, 3, 'CIRCLE'), (5, 3, 2, 'TRIANGLE'), (2, 4, 0, 'SQUARE'), (4, 5, 1, 'HEXAGON')]},
    "3C": {"walls": [(1, 0, 'E'), (4, 1, 'NE'), (1, 3, 'SW'), (0, 5, 'S'), (5, 5, 'NW'), (3, 6, 'SE'), (7, 7, 'NESW')],
           "goals": [(4, 1, 1, 'CIRCLE'), (1, 3, 0, 'TRIANGLE'), (5, 5, 3, 'SQUARE'), (3, 6, 2, 'HEXAGON')]},
    "4C": {"walls": [(2, 0, 'E'), (5, 1, 'SW'), (7, 2, 'SE'), (0, 3, 'S'), (3, 4, 'SE'), (6, 5, 'NW'), (1, 6, 'NE'), (7, 7, 'NESW')],
           "goals": [(5, 1, 2, 'CIRCLE'), (7, 2, -1, 'VORTEX'), (3, 4, 0, 'HEXAGON'), (6, 5, 1, 'SQUARE'), (1, 6, 3, 'TRIANGLE')]},
    "1D": {"walls": [(5, 0, 'E'), (1, 3, 'NW'), (6, 4, 'SE'), (0, 5, 'S'), (2, 6, 'NE'), (3, 6, 'SW'), (7, 7, 'NESW')],
           "goals": [(1, 3, 0, 'CIRCLE'), (6, 4, 3, 'HEXAGON'), (2, 6, 1, 'TRIANGLE'), (3, 6, 2, 'SQUARE')]},
    "2D": {"walls": [(2, 0, 'E'), (5, 2, 'SE'), (6, 2, 'NW'), (1, 5, 'SW'), (0, 6, 'S'), (4, 7, 'NE'), (7, 7, 'NESW')],
           "goals": [(5, 2, 1, 'HEXAGON'), (6, 2, 3, 'CIRCLE'), (1, 5, 0, 'SQUARE'), (4, 7, 2, 'TRIANGLE')]},
    "3D": {"walls": [(4, 0, 'E'), (0, 2, 'S'), (6, 2, 'SE'), (2, 4, 'NE'), (3, 4, 'SW'), (5, 6, 'NW'), (7, 7, 'NESW')],
           "goals": [(6, 2, 2, 'HEXAGON'), (2, 4, 1, 'CIRCLE'), (3, 4, 0, 'TRIANGLE'), (5, 6, 3, 'SQUARE')]},
    "4D": {"walls": [(4, 0, 'E'), (6, 2, 'NW'), (2, 3, 'NE'), (3, 3, 'SW'), (1, 5, 'SE'), (0, 6, 'S'), (5, 7, 'SE'), (7, 7, 'NESW')],
           "goals": [(6, 2, 3, 'TRIANGLE'), (2, 3, 2, 'CIRCLE'), (3, 3, 1, 'SQUARE'), (1, 5, 0, 'HEXAGON'), (5, 7, -1, 'VORTEX')]},
}
NAMES = list(QUADRANTS)
N, E, S, W = 0, 1, 2, 3
STEP = {N: (0, -1), E: (1, 0), S: (0, 1), W: (-1, 0)}
SIZE = 16
CENTRE = {(7, 7), (8, 7), (7, 8), (8, 8)}
LETTERS = "RGBYS"


def quadrant_walls(name):
    """The walls of one quadrant side on a 16 x 16 board: walls[d][(x, y)]."""
    walls = [set() for _ in range(4)]
    for x, y, sides in QUADRANTS[name]["walls"]:
        for side, d in (("N", N), ("E", E), ("S", S), ("W", W)):
            if side in sides:
                dx, dy = STEP[d]
                walls[d].add((x, y))
                walls[(d + 2) % 4].add((x + dx, y + dy))
    return walls


def place(x, y, pos):
    """Where square (x, y) of a quadrant drawn NW lands in position pos (0 NW, 1 NE, 2 SE, 3 SW)."""
    return [(x, y), (SIZE - 1 - y, x), (SIZE - 1 - x, SIZE - 1 - y), (y, SIZE - 1 - x)][pos]


class Board:
    def __init__(self, quads):
        self.quads = quads
        self.walls = [set() for _ in range(4)]
        self.goals = []
        for pos, name in enumerate(quads):
            q = quadrant_walls(name)
            for y in range(SIZE // 2):
                for x in range(SIZE // 2):
                    for d in range(4):
                        if (x, y) in q[d]:
                            self.walls[(d + pos) % 4].add(place(x, y, pos))
                if (7, y) in q[E]:
                    self.walls[(W + pos) % 4].add(place(8, y, pos))
            for x in range(SIZE // 2):
                if (x, 7) in q[S]:
                    self.walls[(N + pos) % 4].add(place(x, 8, pos))
            for x, y, robot, shape in QUADRANTS[name]["goals"]:
                self.goals.append((place(x, y, pos), robot, shape))
        for i in range(SIZE):
            self.walls[N].add((i, 0))
            self.walls[S].add((i, SIZE - 1))
            self.walls[W].add((0, i))
            self.walls[E].add((SIZE - 1, i))

    def wall_pairs(self):
        """Walls between two squares of the board, as marbles' `[[r, c], [r2, c2]]`: the edge
        and the centre's `#` squares need none."""
        pairs = []
        for y in range(SIZE):
            for x in range(SIZE):
                for d, (dx, dy) in ((E, (1, 0)), (S, (0, 1))):
                    n = (x + dx, y + dy)
                    if n[0] >= SIZE or n[1] >= SIZE or (x, y) in CENTRE or n in CENTRE:
                        continue
                    if (x, y) in self.walls[d] or n in self.walls[(d + 2) % 4]:
                        pairs.append(((y, x), (n[1], n[0])))
        return pairs

    def yaml(self, name, robots, target, active, description=""):
        """robots: [(letter, (x, y))]; target (x, y); active: a letter, or None for any robot."""
        at = {sq: letter for letter, sq in robots}
        rows = []
        for y in range(SIZE):
            rows.append("  " + " ".join(at.get((x, y), "#" if (x, y) in CENTRE else ".") for x in range(SIZE)))
        walls = ",\n  ".join(f"[[{a[0]}, {a[1]}], [{b[0]}, {b[1]}]]" for a, b in self.wall_pairs())
        piece = f"\n  piece: {active}" if active else ""
        text = f"name: \"{name}\"\n"
        if description:
            text += f"description: >\n  {description}\n"
        text += f"rules: ricochet\nboard: |\n" + "\n".join(rows) + f"\nwalls: [\n  {walls}\n]\n"
        text += f"goal:\n  reach: [{target[1]}, {target[0]}]{piece}\n  moves: fewest\n"
        return text

    def grid(self, robots):
        """The peer's grid: a square's walls as bits (N 1, E 2, S 4, W 8) and 16 for a robot."""
        cells = []
        for y in range(SIZE):
            for x in range(SIZE):
                v = 0
                for d, bit in ((N, 1), (E, 2), (S, 4), (W, 8)):
                    if (x, y) in self.walls[d] or (x, y) in CENTRE:
                        v |= bit
                if (x, y) in robots:
                    v |= 16
                cells.append(v)
        return cells


def from_game_id(game):
    """A DriftingDroids game ID: quadrants, robots, active robot, robot squares, target."""
    quads = [NAMES[int(c, 16)] for c in game[:4]]
    count, active = int(game[5], 16), int(game[6], 16)
    squares = [int(game[8 + 2 * i: 10 + 2 * i], 16) for i in range(count)]
    target = int(game[-2:], 16)
    robots = [(LETTERS[i], (sq % SIZE, sq // SIZE)) for i, sq in enumerate(squares)]
    return Board(quads), robots, (target % SIZE, target // SIZE), None if active == 15 else LETTERS[active]


def main():
    if sys.argv[1] == "puzzle":
        board, robots, target, active = from_game_id(sys.argv[2])
        desc = sys.argv[4] if len(sys.argv) > 4 else ""
        print(board.yaml(sys.argv[3], robots, target, active, desc), end="")
    elif sys.argv[1] == "random":
        count, seed, out = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
        nrobots = int(sys.argv[5]) if len(sys.argv) > 5 else 4
        quads = sys.argv[6].split(",") if len(sys.argv) > 6 else ["1A", "2A", "3A", "4A"]
        board = Board(quads)
        rng = random.Random(seed)
        os.makedirs(out, exist_ok=True)
        free = [(x, y) for y in range(SIZE) for x in range(SIZE) if (x, y) not in CENTRE]
        goals = [g for g in board.goals if g[1] >= 0]
        with open(os.path.join(out, "positions.txt"), "w") as peer:
            for i in range(count):
                target, colour, _ = rng.choice(goals)
                while True:
                    squares = rng.sample(free, nrobots)
                    if squares[colour] != target:
                        break
                robots = [(LETTERS[k], sq) for k, sq in enumerate(squares)]
                name = f"p{i:04d}"
                with open(os.path.join(out, name + ".yaml"), "w") as f:
                    f.write(board.yaml(name, robots, target, LETTERS[colour]))
                # The peer moves robot 0 to the target: the active robot first.
                order = [squares[colour]] + [sq for k, sq in enumerate(squares) if k != colour]
                idx = [y * SIZE + x for x, y in order]
                peer.write(" ".join(map(str, board.grid(set(order)) + idx + [target[1] * SIZE + target[0]])) + "\n")


if __name__ == "__main__":
    main()
