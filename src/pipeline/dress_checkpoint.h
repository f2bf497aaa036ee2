#pragma once
// Checkpoints of `drape dress` (docs/HARDENING.md): one file, written
// atomically, holding what the job needs to continue, and the fingerprint of
// the inputs and settings a resume must match. Private to the pipeline.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "drape/pipeline/dress_stages.h"

namespace drape {

/// What must be equal for a checkpoint to be resumed: the inputs' contents and
/// every setting that changes the simulation (not the thread count: results do
/// not depend on it, docs/HARDENING.md). `bones`: the rig's bone count (0 without).
std::string dress_settings_fingerprint(const DressJob& job, const InputHashes& hashes, const Fabric& fabric,
                                       std::size_t bones);

/// A checkpoint file as read.
struct Checkpoint {
  std::filesystem::path path;
  nlohmann::json meta;            ///< format, fingerprint, phase, steps, rest_drape
  std::string pose_start, state;  ///< ClothSimulation::save_state() blobs
};

/// [u64 size][meta JSON][u64 size][pose start state][u64 size][state]
std::string pack_checkpoint(const nlohmann::ordered_json& meta, const std::string& pose_start,
                            const std::string& state);

/// `where` is a job's output folder or its checkpoint folder or file.
/// \throw InvalidInput when there is none, or it is truncated or not a drape checkpoint.
Checkpoint read_checkpoint(const std::filesystem::path& where);

}  // namespace drape
