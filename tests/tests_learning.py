"""tests_learning.py — the learned-evaluation pipeline at a tiny scale: scripts/train for every
game with features (its validation loss falls, the weights load, the engine plays legal moves
with them), shards and weights that are the same on every run, and damaged or mismatched files
refused with the file and the offset named."""
import filecmp
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile

from harness import check, test

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRAINED = ["gounki", "checkers", "russian", "brazilian", "international", "tawol", "ecroulement", "ecroulement-rapide"]


def donjon(ctx, *args, timeout=300):
    return subprocess.run([ctx.binary] + [str(a) for a in args], capture_output=True, text=True, timeout=timeout,
                          env=ctx.env)


@test("learning", sanitizers=False)
def tiny_training_runs_in_every_game(ctx):
    for variant in TRAINED:
        work = tempfile.mkdtemp()
        done = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "train"), variant, "--tiny", "--work", work,
                               "--threads", "2", "--engine", ctx.binary], capture_output=True, text=True, timeout=600)
        check(done.returncode == 0, "%s: %s %s" % (variant, done.stdout[-1500:], done.stderr[-1500:]))
        m = re.search(r"validation loss ([0-9.]+) -> ([0-9.]+)", done.stdout)
        check(m and float(m.group(2)) < float(m.group(1)), "%s: the validation loss did not fall: %s" % (
            variant, m.group(0) if m else done.stdout[-800:]))
        weights = os.path.join(work, variant + ".djw")
        e = ctx.engine(variant)
        check(not e.errors_until_ready("setoption name EvalFile value " + weights), "%s: weights refused" % variant)
        e.send("eval")
        line = e.read_until(lambda l: l.startswith("info string eval"))[-1]
        check("learned weights from EvalFile" in line, line)
        for depth in (1, 4):
            best = e.go("depth %d" % depth)[-1].split()[1]
            check(best in e.moves(), "%s: bestmove %s" % (variant, best))
        shutil.rmtree(work)


@test("learning", sanitizers=False)
def shards_and_weights_are_the_same_on_every_run(ctx):
    work = tempfile.mkdtemp()
    shards = []
    for threads in (1, 3):
        path = os.path.join(work, "shard%d.bin" % threads)
        done = donjon(ctx, "selfplay", "--variant", "checkers", "--games", 12, "--first-game", 5, "--seed", 9,
                      "--nodes", 200, "--threads", threads, "--out", path, "--hand-set", "--progress", 0)
        check(done.returncode == 0, done.stderr)
        shards.append(path)
    check(filecmp.cmp(shards[0], shards[1], shallow=False), "a shard depends on the thread count")
    # another range of the same seed is other games
    other = os.path.join(work, "other.bin")
    donjon(ctx, "selfplay", "--variant", "checkers", "--games", 12, "--first-game", 17, "--seed", 9, "--nodes", 200,
           "--out", other, "--hand-set", "--progress", 0)
    check(not filecmp.cmp(shards[0], other, shallow=False), "two game ranges gave the same data")
    outs = []
    for run in range(2):
        out = os.path.join(work, "w%d.djw" % run)
        done = donjon(ctx, "train", "--variant", "checkers", "--data", shards[0], "--data", other, "--out", out,
                      "--epochs", 3, "--seed", 4, "--threads", 2)
        check(done.returncode == 0, done.stderr)
        check(re.search(r"epoch  3: training loss [0-9.]+, validation loss [0-9.]+", done.stderr), done.stderr)
        outs.append(out)
    check(filecmp.cmp(outs[0], outs[1], shallow=False), "two trainings with one seed differ")
    shutil.rmtree(work)


@test("learning", sanitizers=False)
def only_the_weights_named_are_trained(ctx):
    work = tempfile.mkdtemp()
    shard = os.path.join(work, "shard.bin")
    done = donjon(ctx, "selfplay", "--variant", "checkers", "--games", 12, "--seed", 3, "--nodes", 200, "--out", shard,
                  "--hand-set", "--progress", 0)
    check(done.returncode == 0, done.stderr)
    start = os.path.join(work, "start.djw")
    done = donjon(ctx, "train", "--variant", "checkers", "--epochs", 0, "--out", start)
    check(done.returncode == 0, done.stderr)

    def weights(path):
        data = open(path, "rb").read()
        count = struct.unpack_from("<I", data, 12)[0]
        return struct.unpack_from("<%dh" % count, data, 96), struct.unpack_from("<%dh" % count, data, 96 + 2 * count)

    # everything but the first weights (tempo, material: held where training would move them)
    first, last = 6, len(weights(start)[0]) - 1
    out = os.path.join(work, "only.djw")
    done = donjon(ctx, "train", "--variant", "checkers", "--data", shard, "--init", start, "--out", out, "--epochs", 3,
                  "--only", "%d-%d" % (first, last))
    check(done.returncode == 0, done.stderr)
    before, after = weights(start), weights(out)
    for phase in range(2):
        moved = [i for i, (a, b) in enumerate(zip(before[phase], after[phase])) if a != b]
        check(all(first <= i <= last for i in moved), "held weights moved: %s" % moved[:10])
    check(any(before[ph][i] != after[ph][i] for ph in range(2) for i in range(first, last + 1)),
          "no trained weight moved")
    for bad in ("x", "5-2", "-1", "3-", "999999"):
        done = donjon(ctx, "train", "--variant", "checkers", "--data", shard, "--out", out, "--only", bad)
        check(done.returncode == 2 and "--only" in done.stderr, "--only %s: %d %s" % (bad, done.returncode, done.stderr))
    shutil.rmtree(work)


@test("learning", sanitizers=False)
def stronger_only_leaves_out_the_weaker_sides_positions(ctx):
    work = tempfile.mkdtemp()
    weak, equal = os.path.join(work, "weak.bin"), os.path.join(work, "equal.bin")
    for path, extra in ((weak, ["--weak-nodes", 20]), (equal, [])):
        done = donjon(ctx, "selfplay", "--variant", "checkers", "--games", 12, "--seed", 3, "--nodes", 200, "--out", path,
                      "--hand-set", "--progress", 0, *extra)
        check(done.returncode == 0, done.stderr)

    def positions(path, *extra):
        done = donjon(ctx, "train", "--variant", "checkers", "--data", path, "--out", os.path.join(work, "w.djw"),
                      "--epochs", 1, *extra)
        check(done.returncode == 0, done.stderr)
        return int(re.search(r"\.bin: (\d+) positions", done.stderr).group(1))

    every, stronger = positions(weak), positions(weak, "--stronger-only")
    check(0 < stronger < every, "a shard with a weaker side: %d of %d positions kept" % (stronger, every))
    check(positions(equal, "--stronger-only") == positions(equal), "a shard of equal games lost positions")
    shutil.rmtree(work)


@test("learning", sanitizers=False)
def train_refuses_to_reuse_a_shard_of_other_games(ctx):
    # a shard left by a run with another --shard-games holds other games than its name says:
    # reusing it would train on part of the round without a word
    work = tempfile.mkdtemp()
    shard = os.path.join(work, "round1-seed1000-000000.bin")  # the name of the --tiny run's first shard

    def tiny_run_over_a_shard_made_with(option):
        """Six games of the tiny run's seed under its first shard's name, then the tiny run."""
        if os.path.exists(shard):
            os.remove(shard)
        check(donjon(ctx, "selfplay", "--variant", "checkers", "--games", 6, "--seed", 1000, "--nodes", 100, "--out",
                     shard, option, "--progress", 0).returncode == 0, "selfplay failed")
        done = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "train"), "checkers", "--tiny", "--work",
                               work, "--engine", ctx.binary], capture_output=True, text=True, timeout=300)
        return done.returncode, done.stdout[-800:] + done.stderr[-800:], done.stderr

    status, tail, stderr = tiny_run_over_a_shard_made_with("--hand-set")
    check(status != 0 and "holds checkers games 0-5 of seed 1000 at 100 nodes, but round 1 needs checkers "
          "games 0-299 of seed 1000" in stderr, tail)
    # the header's flags are read too: games against the hand-set evaluation are other games
    status, tail, stderr = tiny_run_over_a_shard_made_with("--weak-hand-set")
    check(status != 0 and "holds checkers games 0-5 of seed 1000 at 100 nodes (the weaker side the hand-set "
          "evaluation), but round 1 needs" in stderr, tail)
    shutil.rmtree(work)


@test("learning", sanitizers=False)
def weak_nodes_make_one_side_of_every_game_the_weaker(ctx):
    # the side searching 30 nodes a move against 2,000 must lose most games, whichever colour
    work = tempfile.mkdtemp()
    path = os.path.join(work, "unequal.bin")
    done = donjon(ctx, "selfplay", "--variant", "checkers", "--games", 20, "--seed", 3, "--nodes", 2000,
                  "--weak-nodes", 30, "--out", path, "--hand-set", "--progress", 0)
    check(done.returncode == 0, done.stderr)
    m = re.search(r"white (\d+), draws (\d+), black (\d+); the stronger side \+(\d+) =(\d+) -(\d+)", done.stderr)
    check(m, done.stderr)
    white, draws, black, wins, stronger_draws, losses = map(int, m.groups())
    check(wins + stronger_draws + losses == 20 and stronger_draws == draws, done.stderr)
    check(wins >= losses + 10, "the stronger side did not win: %s" % m.group(0))
    # the shard says so, and the trainer reports it
    done = donjon(ctx, "train", "--variant", "checkers", "--data", path, "--out", os.path.join(work, "w.djw"),
                  "--epochs", 1)
    check(done.returncode == 0 and "(games 0-19 of seed 3, nodes 2000, the weaker side 30)" in done.stderr,
          done.stderr[-800:])
    # both colours were the weaker side: neither colour won everything
    check(white >= 3 and black >= 3, m.group(0))
    shutil.rmtree(work)


@test("learning", sanitizers=False)
def weak_hand_set_gives_one_side_the_hand_set_evaluation(ctx):
    # the weaker side plays the hand-set evaluation: with the built-in weights on the other side
    # the games change; when both sides play hand-set anyway (--hand-set) they are the same games,
    # and only the header's flag (offset 92) tells the shards apart
    work = tempfile.mkdtemp()
    paths = {}
    for name, extra in [("plain", []), ("weak", ["--weak-hand-set"]), ("hand", ["--hand-set"]),
                        ("hand-weak", ["--hand-set", "--weak-hand-set"])]:
        paths[name] = os.path.join(work, name + ".bin")
        done = donjon(ctx, "selfplay", "--variant", "checkers", "--games", 6, "--seed", 5, "--nodes", 300,
                      "--out", paths[name], "--progress", 0, *extra)
        check(done.returncode == 0, done.stderr)
    data = {name: open(path, "rb").read() for name, path in paths.items()}
    check(data["plain"][128:] != data["weak"][128:], "--weak-hand-set did not change the games")
    check(data["hand"][128:] == data["hand-weak"][128:], "hand-set games changed with --weak-hand-set")
    check(data["hand"][92:96] == b"\0\0\0\0" and data["hand-weak"][92:96] == b"\1\0\0\0",
          (data["hand"][92:96], data["hand-weak"][92:96]))
    done = donjon(ctx, "train", "--variant", "checkers", "--data", paths["weak"], "--out", os.path.join(work, "w.djw"),
                  "--epochs", 1)
    check(done.returncode == 0 and "(games 0-5 of seed 5, nodes 300, the weaker side with the hand-set evaluation)"
          in done.stderr, done.stderr[-800:])
    shutil.rmtree(work)


@test("learning", sanitizers=False)
def the_weaker_sides_own_scores_are_not_targets(ctx):
    # a weaker side that played another evaluation scored its positions in that evaluation's units
    # and by its opinion: the trainer takes the result alone as their target and leaves them out of
    # K's fit. The positions it marks so must be exactly the records whose side to move is the
    # weaker side (White in even games, Black in odd ones), counted here from the shard's bytes;
    # a weaker side that only searched less (--weak-nodes) played the same evaluation: none
    work = tempfile.mkdtemp()
    for name, extra, other_evaluation in [("hand", ["--weak-hand-set"], True), ("nodes", ["--weak-nodes", 100], False)]:
        path = os.path.join(work, name + ".bin")
        done = donjon(ctx, "selfplay", "--variant", "checkers", "--games", 8, "--seed", 7, "--nodes", 300,
                      "--out", path, "--progress", 0, *extra)
        check(done.returncode == 0, done.stderr)
        data = open(path, "rb").read()
        size, count = struct.unpack_from("<I", data, 12)[0], struct.unpack_from("<Q", data, 40)[0]
        weaker = 0
        for i in range(count):
            game, side = struct.unpack_from("<I", data, 128 + i * size)[0], data[128 + i * size + 9]
            weaker += side == game % 2
        check(0 < weaker < count, (weaker, count))
        done = donjon(ctx, "train", "--variant", "checkers", "--data", path, "--out", os.path.join(work, "w.djw"),
                      "--epochs", 0)
        line = "%d of them the weaker side's, scored by its own evaluation" % weaker
        check(done.returncode == 0 and (line in done.stderr) == other_evaluation and
              ("weaker side's, scored" in done.stderr) == other_evaluation, (name, line, done.stderr[-800:]))
    shutil.rmtree(work)


@test("learning", sanitizers=False)
def weak_eval_file_gives_one_side_other_weights(ctx):
    # the weaker side plays a weights file: the same weights as the other side's give the same
    # games, other weights change them; the header names them by their file's checksum
    work = tempfile.mkdtemp()
    builtin = os.path.join(ROOT, "src", "weights", "checkers.djw")
    other = os.path.join(work, "other.djw")
    paths = {}

    def play(name, *extra):
        paths[name] = os.path.join(work, name + ".bin")
        done = donjon(ctx, "selfplay", "--variant", "checkers", "--games", 6, "--seed", 5, "--nodes", 300,
                      "--out", paths[name], "--progress", 0, *extra)
        check(done.returncode == 0, done.stderr)
        return open(paths[name], "rb").read()

    plain = play("plain")
    check(donjon(ctx, "train", "--variant", "checkers", "--data", paths["plain"], "--out", other, "--epochs", 1,
                 "--rate", 5).returncode == 0, "train failed")
    same = play("same", "--weak-eval-file", builtin)
    changed = play("changed", "--weak-eval-file", other)
    check(plain[128:] == same[128:], "the built-in weights as the weaker side's file changed the games")
    check(plain[128:] != changed[128:], "--weak-eval-file did not change the games")
    for data, path in [(same, builtin), (changed, other)]:
        check(data[92:96] == b"\2\0\0\0" and data[96:104] == open(path, "rb").read()[88:96],
              (data[92:104], path))
    check(plain[92:104] == bytes(12), plain[92:104])
    done = donjon(ctx, "train", "--variant", "checkers", "--data", paths["changed"], "--out",
                  os.path.join(work, "w.djw"), "--epochs", 1)
    checksum = open(other, "rb").read()[88:96][::-1].hex()
    check(done.returncode == 0 and "(games 0-5 of seed 5, nodes 300, the weaker side with weights %s)" % checksum
          in done.stderr, done.stderr[-800:])
    # one side, one evaluation; a file that is not weights is refused, naming it
    done = donjon(ctx, "selfplay", "--variant", "checkers", "--games", 2, "--out", os.path.join(work, "x.bin"),
                  "--weak-hand-set", "--weak-eval-file", other, "--progress", 0)
    check(done.returncode == 2 and "two evaluations for one side" in done.stderr, done.stderr)
    done = donjon(ctx, "selfplay", "--variant", "checkers", "--games", 2, "--out", os.path.join(work, "x.bin"),
                  "--weak-eval-file", paths["plain"], "--progress", 0)
    check(done.returncode == 1 and paths["plain"] in done.stderr, done.stderr)
    shutil.rmtree(work)


@test("learning", sanitizers=False)
def damaged_and_mismatched_files_are_refused(ctx):
    work = tempfile.mkdtemp()
    shard = os.path.join(work, "checkers.bin")
    check(donjon(ctx, "selfplay", "--variant", "checkers", "--games", 6, "--nodes", 200, "--out", shard,
                 "--hand-set", "--progress", 0).returncode == 0, "selfplay failed")
    weights = os.path.join(work, "checkers.djw")
    check(donjon(ctx, "train", "--variant", "checkers", "--data", shard, "--out", weights, "--epochs", 1).returncode == 0,
          "train failed")
    data = open(shard, "rb").read()
    good = open(weights, "rb").read()

    def damaged(name, content):
        path = os.path.join(work, name)
        with open(path, "wb") as f:
            f.write(content)
        return path

    # data shards: truncated, a flipped byte, another variant, not a shard at all
    cases = [(damaged("cut.bin", data[:-7]), "truncated"),
             (damaged("flip.bin", data[:200] + bytes([data[200] ^ 1]) + data[201:]), "checksum"),
             (damaged("junk.bin", b"hello" * 40), "not a Donjon data shard")]
    # a record whose board no writer could make (a square held by both sides) under a good
    # checksum: refused as such, before the features read it
    record_size = int.from_bytes(data[12:16], "little")
    board = 128 + record_size + 16  # the second record's board: White's men, then Black's
    white = int.from_bytes(data[board:board + 8], "little")
    black = int.from_bytes(data[board + 8:board + 16], "little")
    forged = bytearray(data)
    forged[board + 8:board + 16] = (black | (white & -white)).to_bytes(8, "little")
    checksum = 0xcbf29ce484222325
    for byte in forged[128:]:
        checksum = ((checksum ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    forged[80:88] = checksum.to_bytes(8, "little")
    cases.append((damaged("forged.bin", bytes(forged)), "not a checkers board"))
    for path, word in cases:
        done = donjon(ctx, "train", "--variant", "checkers", "--data", path, "--out", os.path.join(work, "x.djw"))
        check(done.returncode != 0 and word in done.stderr and path in done.stderr and "offset" in done.stderr,
              "%s: %s" % (word, done.stderr))
    done = donjon(ctx, "train", "--variant", "russian", "--data", shard, "--out", os.path.join(work, "x.djw"))
    check(done.returncode != 0 and "variant 'checkers'" in done.stderr, done.stderr)
    # weights: truncated, a flipped byte, another variant's, another feature set (international's)
    e = ctx.engine("checkers")
    before = e.ask("eval", "info string eval")
    cases = [(damaged("cut.djw", good[:-3]), "truncated"),
             (damaged("flip.djw", good[:500] + bytes([good[500] ^ 4]) + good[501:]), "checksum"),
             (damaged("hdr.djw", good[:20] + b"x" + good[21:]), "variant"),
             (shard, "not a Donjon weights file")]
    for path, word in cases:
        errors = e.errors_until_ready("setoption name EvalFile value " + path)
        check(errors and word in errors[0] and path in errors[0] and "offset" in errors[0], "%s: %s" % (word, errors))
        check(e.ask("eval", "info string eval") == before, "the weights changed after a refused file")
    # a folder opens but does not read: the reason is named, not taken for an empty file
    errors = e.errors_until_ready("setoption name EvalFile value " + work)
    check(errors and "cannot read" in errors[0] and work in errors[0], errors)
    check(e.ask("eval", "info string eval") == before, "the weights changed after a folder")
    e = ctx.engine("russian")
    errors = e.errors_until_ready("setoption name EvalFile value " + weights)
    check(errors and "checkers" in errors[0], errors)
    e = ctx.engine("international")
    errors = e.errors_until_ready("setoption name EvalFile value " + damaged("intl.djw", good[:16] + b"international".ljust(
        24, b"\0") + good[40:]))
    check(errors and "feature set" in errors[0], errors)
    shutil.rmtree(work)


@test("learning", sanitizers=False)
def a_shard_of_a_killed_run_is_salvaged(ctx):
    """A writer killed before it closed leaves no count or checksum and maybe a torn record:
    --salvage keeps the whole records, and the shard then reads as the complete one did."""
    work = tempfile.mkdtemp()
    shard = os.path.join(work, "whole.bin")
    check(donjon(ctx, "selfplay", "--variant", "checkers", "--games", 6, "--nodes", 200, "--out", shard,
                 "--hand-set", "--progress", 0).returncode == 0, "selfplay failed")
    whole = open(shard, "rb").read()
    record_size = int.from_bytes(whole[12:16], "little")
    records = int.from_bytes(whole[40:48], "little")
    check(records > 0 and len(whole) == 128 + records * record_size, "the shard's size")
    # the header as dataset_create writes it before the first record: count and checksum 0
    killed = whole[:40] + bytes(8) + whole[48:80] + bytes(8) + whole[88:] + whole[128:128 + record_size // 2]
    path = os.path.join(work, "killed.bin")
    with open(path, "wb") as f:
        f.write(killed)
    done = donjon(ctx, "train", "--variant", "checkers", "--data", path, "--out", os.path.join(work, "x.djw"))
    check(done.returncode != 0 and "trailing bytes" in done.stderr, done.stderr)
    done = donjon(ctx, "selfplay", "--salvage", path)
    check(done.returncode == 0 and "%d records kept" % records in done.stderr, done.stderr)
    check(open(path, "rb").read() == whole, "the salvaged shard differs from the whole one")
    done = donjon(ctx, "train", "--variant", "checkers", "--data", path, "--out", os.path.join(work, "x.djw"),
                  "--epochs", 1)
    check(done.returncode == 0, done.stderr)
    junk = os.path.join(work, "junk.bin")
    with open(junk, "wb") as f:
        f.write(b"hello" * 40)
    done = donjon(ctx, "selfplay", "--salvage", junk)
    check(done.returncode != 0 and junk in done.stderr and "not a Donjon data shard" in done.stderr, done.stderr)
    shutil.rmtree(work)


def write_random_checkers_records(ctx, path):
    """Four random checkers games of 30 plies as scripts/match writes them, one per result."""
    rng = random.Random(5)
    e = ctx.engine("checkers")
    games = []
    for result in ("1-0", "0-1", "1/2-1/2", "*"):
        played = []
        for ply in range(30):
            e.send("position startpos moves " + " ".join(played))
            moves = e.moves()
            if not moves:
                break
            played.append(rng.choice(moves))
        numbered = " ".join(("%d. " % (i // 2 + 1) if i % 2 == 0 else "") + m for i, m in enumerate(played))
        games.append('[Event "test"]\n[Variant "checkers"]\n[Result "%s"]\n\n%s {a comment} %s\n' %
                     (result, numbered, result))
    with open(path, "w") as f:
        f.write("\n".join(games))


@test("learning")
def game_records_become_training_data(ctx):
    # `donjon records` replays PDN games and writes their quiet positions with the games'
    # results to a shard (dataset.h: 40 u64 records, 64 u64 games, 92 u32 flags, bit 2 records)
    work = tempfile.mkdtemp()
    pdn, shard = os.path.join(work, "games.pdn"), os.path.join(work, "games.bin")
    write_random_checkers_records(ctx, pdn)
    done = donjon(ctx, "records", "--variant", "checkers", "--pdn", pdn, "--out", shard, "--nodes", 200)
    check(done.returncode == 0 and "3 games of checkers (White +1 =1 -1)" in done.stderr, done.stderr)
    header = open(shard, "rb").read(128)
    records, games = struct.unpack_from("<Q", header, 40)[0], struct.unpack_from("<Q", header, 64)[0]
    check(games == 3 and struct.unpack_from("<I", header, 92)[0] & 4, "header: %d games, flags %d" %
          (games, struct.unpack_from("<I", header, 92)[0]))
    check(20 <= records <= 90, "%d positions from 3 games of 30 plies" % records)
    # another variant's games, an illegal move: refused with the file, game and ply named
    for text, wanted in (('[Variant "russian"]\n[Result "1-0"]\n\n1. 9-13 *\n', "game 1 is russian, not checkers"),
                         ('[Variant "checkers"]\n[Result "1-0"]\n\n1. 9-13 22-18 2. 1-5 1-0\n',
                          "game 1: ply 3 '1-5'"),
                         ('[Variant "checkers"]\n[Result "1-0\n', "a malformed tag line")):
        with open(pdn, "w") as f:
            f.write(text)
        done = donjon(ctx, "records", "--variant", "checkers", "--pdn", pdn, "--out", shard)
        check(done.returncode == 1 and pdn in done.stderr and wanted in done.stderr, done.stderr)
        check(not os.path.exists(shard), "a shard was left after an error")
    shutil.rmtree(work)


@test("learning", sanitizers=False)
def the_trainer_reads_game_record_shards(ctx):
    work = tempfile.mkdtemp()
    pdn, shard = os.path.join(work, "games.pdn"), os.path.join(work, "games.bin")
    write_random_checkers_records(ctx, pdn)
    done = donjon(ctx, "records", "--variant", "checkers", "--pdn", pdn, "--out", shard, "--nodes", 200)
    check(done.returncode == 0, done.stderr)
    done = donjon(ctx, "train", "--variant", "checkers", "--data", shard, "--out", os.path.join(work, "w.djw"),
                  "--epochs", 1)
    check(done.returncode == 0 and "3 games from game records, scored at 200 nodes" in done.stderr, done.stderr)
    shutil.rmtree(work)


@test("learning", sanitizers=False)
def incremental_evaluation_is_the_evaluation_from_scratch(ctx):
    # tests/accumulate_check.c: along random games, the accumulator the search carries from move
    # to move equals the one made from the position alone, and so do the scores
    checker = os.path.join(ROOT, "build", "accumulate-check")
    if not os.path.exists(checker):
        subprocess.run(["make", "-C", ROOT, "build/accumulate-check"], check=True, capture_output=True)
    incremental = 0
    for variant in TRAINED:
        done = subprocess.run([checker, variant, "200", "3"], capture_output=True, text=True, timeout=300)
        check(done.returncode == 0 and done.stdout.split()[0] in ("ok", "none"),
              "%s: %s %s" % (variant, done.stdout, done.stderr))
        if done.stdout.startswith("ok "):
            incremental += 1
            check(int(done.stdout.split()[1]) >= 5000, "%s: only %s" % (variant, done.stdout))
    check(incremental >= 1, "no game has an incremental evaluation")


@test("learning")
def fast_evaluation_is_the_feature_sum_along_random_games(ctx):
    # `eval` prints the fast evaluation (folded tables, incremental or packed reads) and the plain
    # sum over the extracted features with the same weights: two implementations that must agree
    rng = random.Random(11)
    for variant in TRAINED:
        e = ctx.engine(variant)
        compared = 0
        for game in range(4):
            played = []
            for ply in range(60):
                e.send("position startpos moves " + " ".join(played))
                line = e.ask("eval", "info string eval")
                m = re.search(r"info string eval (-?\d+) .*feature sum (-?\d+)", line)
                check(m, "%s: %s" % (variant, line))
                check(m.group(1) == m.group(2), "%s after %s: %s" % (variant, " ".join(played), line))
                compared += 1
                moves = e.moves()
                if not moves:
                    break
                played.append(rng.choice(moves))
        check(compared >= 100, "%s: only %d positions" % (variant, compared))
