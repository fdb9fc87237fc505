print("graph-fuzz")
