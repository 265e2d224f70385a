print("benchmark: todo")
