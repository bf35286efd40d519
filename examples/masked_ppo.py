"""Masked PPO on Food Chain Magnate's single-agent env, in one file (CleanRL style: torch only, no SB3).

    python examples/masked_ppo.py                                   # 8,192 steps against random players
    python examples/masked_ppo.py --opponent heuristic --total-steps 200000

One player learns; the other seats are played inside the env by ``fcm_agents``' random or heuristic
agent. The legal ids come the Gymnasium way, ``info["action_mask"]``, batched by Gymnasium's own
``SyncVectorEnv`` (same-step auto-reset: the info after a finished game is the new game's). Illegal
ids get a logit of -1e8, so they are never sampled and take no part in the loss. The network reads
the flat observation cut in two: the 47 board planes with two strided convolutions, the vector
with one dense layer (docs/observation.md).

At the end the greedy policy plays ``--eval-games`` games on seeds it never trained on, and the
script prints one line starting with ``result:``. Everything is seeded by ``--seed``.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from dataclasses import dataclass

import gymnasium
import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

import fcm_env
from fcm_env.encoding import BOARD_SHAPE, FLAT_SIZE, NUM_ACTIONS, VECTOR_SIZE

BOARD_SIZE = FLAT_SIZE - VECTOR_SIZE
TRAIN_SEEDS = (0, 1_000_000)  # the maps the learner trains on ...
EVAL_SEEDS = (10_000_000, 10_001_000)  # ... and the maps it is evaluated on: never the same
INVALID_LOGIT = -1e8  # exp() of it is exactly 0 in float32: an illegal id is never drawn


@dataclass
class Args:
    """Every setting is a command-line flag: ``--total-steps 256`` sets ``total_steps``."""

    seed: int = 1
    total_steps: int = 8192  # learner decisions over all envs
    num_envs: int = 4
    num_steps: int = 64  # steps per env per rollout: a rollout is num_envs * num_steps decisions
    num_players: int = 2
    max_rounds: int = 10  # short games: the game is cut off (and scored) after this round
    opponent: str = "random"  # "random" or "heuristic"
    shaping: str = "cash_lead"  # zero-sum cash-lead shaping on top of the +1 / -1 for the win; "none": off
    learning_rate: float = 2.5e-4
    anneal_lr: bool = True
    gamma: float = 0.995
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 4
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    eval_games: int = 20
    threads: int = 1  # torch CPU threads: small batches run fastest on one


HELP = {  # what each flag does, for --help
    "seed": "seeds the env, torch and the evaluation: the same seed gives the same run",
    "total_steps": "learner decisions to train on, over all envs",
    "num_envs": "games played side by side (Gymnasium's SyncVectorEnv)",
    "num_steps": "steps per env per rollout: a rollout is num_envs x num_steps decisions",
    "num_players": "players at the table (2-5): one learns, the others are --opponent",
    "max_rounds": "a game is cut off and scored after this round (short games learn faster)",
    "opponent": "who plays the other seats: random or heuristic",
    "shaping": "cash_lead: a zero-sum cash-lead bonus on top of +1 / -1 for the win; none: the win only",
    "learning_rate": "Adam's learning rate",
    "anneal_lr": "lower the learning rate linearly to 0 over the run (true/false)",
    "gamma": "discount factor",
    "gae_lambda": "GAE's lambda",
    "num_minibatches": "minibatches per update epoch",
    "update_epochs": "passes over each rollout",
    "clip_coef": "PPO's clip range",
    "ent_coef": "weight of the entropy bonus",
    "vf_coef": "weight of the value loss",
    "max_grad_norm": "gradient norm clip",
    "eval_games": "games of the greedy policy at the end, on seeds it never trained on",
    "threads": "torch CPU threads (small batches run fastest on one)",
}
_PARSERS = {"int": int, "float": float, "str": str, "bool": lambda text: text.lower() in ("1", "true", "yes")}


def parse_args(argv: list[str] | None = None) -> Args:
    """``Args`` from the command line (flags are the field names with dashes)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for field in dataclasses.fields(Args):
        flag = "--" + field.name.replace("_", "-")
        parser.add_argument(flag, type=_PARSERS[field.type], default=field.default, metavar=field.type.upper(),
                            help=f"{HELP[field.name]} (default: {field.default})")
    args = Args(**vars(parser.parse_args(argv)))
    if args.opponent not in ("random", "heuristic"):
        parser.error(f"--opponent must be random or heuristic, got {args.opponent!r}")
    return args


def make_env(args: Args, game_seeds: tuple[int, int]) -> gymnasium.Env:
    """The registered single-agent env; the learner takes a random seat each game."""
    sampler = None  # the env's default: random players seeded from the env's own generator
    if args.opponent == "heuristic":
        from fcm_agents import HeuristicAgent

        def sampler(rng: np.random.Generator) -> list[HeuristicAgent]:
            return [HeuristicAgent(seed=int(rng.integers(2**31))) for _ in range(args.num_players - 1)]

    return gymnasium.make(
        fcm_env.SINGLE_AGENT_ENV_ID, num_players=args.num_players, max_rounds=args.max_rounds,
        shaping=None if args.shaping == "none" else args.shaping, learner_seat="random", opponent_sampler=sampler, game_seeds=game_seeds,
        truncation_as_termination=True,  # the cut-off game is over and scored: nothing to bootstrap
    )


def layer_init(layer: nn.Module, std: float = np.sqrt(2), bias: float = 0.0) -> nn.Module:
    """Orthogonal weights and constant biases, the usual PPO initialisation."""
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias)
    return layer


class Agent(nn.Module):
    """Actor-critic over the flat observation: board planes -> convolutions, vector -> dense."""

    def __init__(self) -> None:
        super().__init__()
        channels = BOARD_SHAPE[0]
        self.board = nn.Sequential(
            layer_init(nn.Conv2d(channels, 16, 3, stride=2, padding=1)), nn.ReLU(),
            layer_init(nn.Conv2d(16, 32, 3, stride=2, padding=1)), nn.ReLU(), nn.Flatten(),
        )
        with torch.no_grad():
            board_features = self.board(torch.zeros(1, *BOARD_SHAPE)).shape[1]
        self.vector = nn.Sequential(layer_init(nn.Linear(VECTOR_SIZE, 128)), nn.ReLU())
        self.trunk = nn.Sequential(layer_init(nn.Linear(board_features + 128, 128)), nn.ReLU())
        self.actor = layer_init(nn.Linear(128, NUM_ACTIONS), std=0.01)
        self.critic = layer_init(nn.Linear(128, 1), std=1.0)

    def hidden(self, obs: torch.Tensor) -> torch.Tensor:
        board = obs[:, :BOARD_SIZE].reshape(-1, *BOARD_SHAPE)  # the planes come first, in C order
        return self.trunk(torch.cat([self.board(board), self.vector(obs[:, BOARD_SIZE:])], dim=1))

    def get_value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(self.hidden(obs)).squeeze(-1)

    def masked_logits(self, hidden: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Logits with the illegal ids pushed to -1e8: probability exactly 0, no gradient."""
        return self.actor(hidden).masked_fill(~mask, INVALID_LOGIT)

    def get_action_and_value(
        self, obs: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """(action, its log-probability, the entropy, the value); samples an action when none is given."""
        hidden = self.hidden(obs)
        dist = Categorical(logits=self.masked_logits(hidden, mask))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(hidden).squeeze(-1)


def evaluate(agent: Agent, args: Args, device: torch.device) -> tuple[int, int]:
    """Greedy games on the evaluation seeds: (games won, games played)."""
    env = make_env(args, EVAL_SEEDS)
    won = 0
    for game in range(args.eval_games):
        obs, info = env.reset(seed=EVAL_SEEDS[0] + game)
        done = False
        while not done:
            with torch.no_grad():
                x = torch.as_tensor(obs, device=device)[None]
                mask = torch.as_tensor(info["action_mask"], device=device, dtype=torch.bool)[None]
                action = int(agent.masked_logits(agent.hidden(x), mask).argmax())
            obs, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        won += bool(info["winner"])  # the infos hold numbers only: winner, rank, cash, ...
    env.close()
    return won, args.eval_games


def main(argv: list[str] | None = None) -> None:
    """Train, then evaluate; prints one line per iteration and the ``result:`` line."""
    args = parse_args(argv)
    batch_size = args.num_envs * args.num_steps
    minibatch_size = max(1, batch_size // args.num_minibatches)
    iterations = max(1, args.total_steps // batch_size)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    device = torch.device("cpu")

    envs = gymnasium.vector.SyncVectorEnv(
        [lambda: make_env(args, TRAIN_SEEDS) for _ in range(args.num_envs)],
        autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP,
    )
    agent = Agent().to(device)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    obs = torch.zeros((args.num_steps, args.num_envs, FLAT_SIZE), device=device)
    masks = torch.zeros((args.num_steps, args.num_envs, NUM_ACTIONS), dtype=torch.bool, device=device)
    actions = torch.zeros((args.num_steps, args.num_envs), dtype=torch.long, device=device)
    logprobs = torch.zeros((args.num_steps, args.num_envs), device=device)
    rewards = torch.zeros((args.num_steps, args.num_envs), device=device)
    dones = torch.zeros((args.num_steps, args.num_envs), device=device)
    values = torch.zeros((args.num_steps, args.num_envs), device=device)

    start = time.time()
    next_obs, infos = envs.reset(seed=args.seed)
    next_obs = torch.as_tensor(next_obs, device=device)
    next_mask = torch.as_tensor(infos["action_mask"], dtype=torch.bool, device=device)
    next_done = torch.zeros(args.num_envs, device=device)
    episode_returns = np.zeros(args.num_envs)
    finished: list[float] = []
    global_step = 0
    shuffler = np.random.default_rng(args.seed)

    for iteration in range(1, iterations + 1):
        if args.anneal_lr:
            optimizer.param_groups[0]["lr"] = args.learning_rate * (1.0 - (iteration - 1.0) / iterations)
        for step in range(args.num_steps):
            global_step += args.num_envs
            obs[step], masks[step], dones[step] = next_obs, next_mask, next_done
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs, next_mask)
            actions[step], logprobs[step], values[step] = action, logprob, value
            next_obs, reward, terminations, truncations, infos = envs.step(action.cpu().numpy())
            done = np.logical_or(terminations, truncations)
            rewards[step] = torch.as_tensor(reward, dtype=torch.float32, device=device)
            next_obs = torch.as_tensor(next_obs, device=device)
            next_mask = torch.as_tensor(infos["action_mask"], dtype=torch.bool, device=device)
            next_done = torch.as_tensor(done, dtype=torch.float32, device=device)
            episode_returns += reward
            for i in np.flatnonzero(done):
                finished.append(float(episode_returns[i]))
                episode_returns[i] = 0.0

        with torch.no_grad():  # generalized advantage estimation
            next_value = agent.get_value(next_obs)
            advantages = torch.zeros_like(rewards)
            last = torch.zeros(args.num_envs, device=device)
            for t in reversed(range(args.num_steps)):
                if t == args.num_steps - 1:
                    nonterminal, following = 1.0 - next_done, next_value
                else:
                    nonterminal, following = 1.0 - dones[t + 1], values[t + 1]
                delta = rewards[t] + args.gamma * following * nonterminal - values[t]
                last = delta + args.gamma * args.gae_lambda * nonterminal * last
                advantages[t] = last
            returns = advantages + values

        b_obs, b_masks = obs.reshape(-1, FLAT_SIZE), masks.reshape(-1, NUM_ACTIONS)
        b_actions, b_logprobs = actions.reshape(-1), logprobs.reshape(-1)
        b_advantages, b_returns, b_values = advantages.reshape(-1), returns.reshape(-1), values.reshape(-1)
        order = np.arange(batch_size)
        for _ in range(args.update_epochs):
            shuffler.shuffle(order)
            for begin in range(0, batch_size, minibatch_size):
                mb = torch.as_tensor(order[begin:begin + minibatch_size], device=device)
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[mb], b_masks[mb], b_actions[mb])
                ratio = (newlogprob - b_logprobs[mb]).exp()
                adv = b_advantages[mb]
                if adv.numel() > 1:
                    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
                clipped = b_values[mb] + (newvalue - b_values[mb]).clamp(-args.clip_coef, args.clip_coef)
                v_loss = 0.5 * torch.max((newvalue - b_returns[mb]) ** 2, (clipped - b_returns[mb]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()

        recent = finished[-20:]
        mean_return = f"{np.mean(recent):+.3f}" if recent else "n/a"
        print(f"iteration {iteration}/{iterations}  steps {global_step}  games {len(finished)}  "
              f"mean return (last 20) {mean_return}  loss {loss.item():.4f}  "
              f"steps/s {global_step / (time.time() - start):.0f}", flush=True)

    envs.close()
    won, played = evaluate(agent, args, device)
    print(f"result: won {won} of {played} greedy games against {args.opponent} players "
          f"(win rate {won / max(played, 1):.2f}) after {global_step} training steps, "
          f"{time.time() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
