print("touchwire")
