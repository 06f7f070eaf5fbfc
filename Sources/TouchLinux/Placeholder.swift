// TouchLinux
