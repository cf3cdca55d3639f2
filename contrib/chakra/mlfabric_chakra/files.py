# SPDX-License-Identifier: GPL-2.0-only
"""A workload's rank files: PREFIX.<rank>.et, as model/chakra/et-rank-files.cc names them."""

import os

from .framing import frame
from .schema import SCHEMA_VERSION, bindings


def rank_path(prefix, rank):
    """PREFIX.<rank>.et."""
    return f"{prefix}.{rank}.et"


def rank_files(prefix):
    """The rank files present, from rank 0 up to the first missing rank."""
    files = []
    while os.path.isfile(rank_path(prefix, len(files))):
        files.append(rank_path(prefix, len(files)))
    return files


def remove_stale_ranks(prefix, ranks):
    """Delete PREFIX.r.et for r >= ranks, left by an earlier, larger workload: the replay
    takes every rank file present. Returns how many were deleted."""
    deleted = 0
    while os.path.exists(rank_path(prefix, ranks + deleted)):
        os.remove(rank_path(prefix, ranks + deleted))
        deleted += 1
    return deleted


def write_trace(path, nodes, generator=None, parameters=None):
    """Write one rank's trace atomically: the GlobalMetadata (schema version and, when
    given, the generator and its parameters as attributes), then the Node messages."""
    metadata = bindings().GlobalMetadata()
    metadata.version = SCHEMA_VERSION
    if generator is not None:
        metadata.attr.add(name="generator", string_val=generator)
    if parameters is not None:
        metadata.attr.add(name="parameters", string_val=parameters)
    temporary = path + ".tmp"
    with open(temporary, "wb") as f:
        f.write(frame(metadata))
        for node in nodes:
            f.write(frame(node))
    os.replace(temporary, path)
