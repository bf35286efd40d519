"""Training configs (YAML), installed as ``fcm_training.configs`` so ``fcm train quick`` finds them."""
