// An empty module: sched-import creates the named schedule's default body in it.
