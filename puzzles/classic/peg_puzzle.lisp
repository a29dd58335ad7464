((o) (x x) (x x x) (x x x x) (x x x x x))
