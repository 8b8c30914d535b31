OK = "ok"
