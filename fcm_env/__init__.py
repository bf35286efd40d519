"""fcm-magnate: Food Chain Magnate as a reinforcement-learning environment."""

__version__ = "0.1.0"
