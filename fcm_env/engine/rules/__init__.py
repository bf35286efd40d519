"""Rules that several phases share: the bank (breaking, reserve cards) and the milestones."""
