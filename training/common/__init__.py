"""What the SB3 and the Ray backends share: run configs and their checks (``config``), tournaments
between agents with their statistics and ratings (``evaluate``), stopping a long command on SIGINT/SIGTERM
with one line and a resume (``interrupts``), and the ONNX policy graph that
both trainers export and ``fcm_agents.OnnxAgent`` plays (``export``). It imports no backend
subpackage: a backend adds itself by importing from here (a Ray tournament passes its game runner
to ``evaluate.run_games``)."""
