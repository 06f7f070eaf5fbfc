// BoardConfig
