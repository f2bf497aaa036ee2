// Rig stage of `drape dress`: the body's skeleton and weights, and the pose
// of a motion frame (dress_stages.h).

#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/core/sha256.h"
#include "drape/pipeline/body_rigging.h"
#include "drape/pipeline/dress_stages.h"

namespace drape {

std::optional<DressRig> rig_dress_body(const DressJob& job, DressInputs& in) {
  if (job.skeleton_path.empty() && job.motion_path.empty()) return std::nullopt;
  DressRig r;
  r.skeleton_path = job.skeleton_path;
  if (!job.motion_path.empty()) {
    // Read once: parsed and hashed (report, checkpoint) from the same bytes.
    const std::string text = read_file(job.motion_path);
    in.hashes.add(job.motion_path, sha256_hex(text));
    r.motion = parse_bvh(text, job.motion_path.string());
    if (static_cast<std::size_t>(job.motion_frame) >= r.motion->frame_count())
      throw InvalidInput(job.motion_path.string(), 0,
                         "--frame " + std::to_string(job.motion_frame) + " out of range (" +
                             std::to_string(r.motion->frame_count()) + " frames, first is 0)");
  }
  // Every rig file read once: the body being dressed is the template body
  // when it is the same file read the same way (MakeHuman's base.obj).
  RigFileCache files;
  if (!job.body_group && !job.body_unit && !job.body_up && !job.body_front) files.loaded_body = &in.body;
  // No skeleton given: the candidate whose bones the motion drives most.
  const TemplateRig tr =
      !r.skeleton_path.empty()
          ? load_template_rig(r.skeleton_path, job.template_body_path, job.weights_path, files)
          : template_rig_for_motion(job.skeleton_candidates, *r.motion, job.template_body_path,
                                    job.weights_path, r.skeleton_path, files);
  for (const auto& [path, sha] : files.sha256) in.hashes.add(path, sha);
  RiggedBody rb = rig_body(tr, *in.body_tree, in.body.all_vertices);
  r.skeleton = std::move(rb.skeleton);
  r.body_weights = std::move(rb.weights);
  r.method = std::move(rb.method);
  r.pose = Pose::identity(r.skeleton.size());
  if (r.motion) {
    r.joint_map = job.joint_map_path.empty() ? guess_joint_map(r.skeleton, *r.motion)
                                             : read_joint_map(job.joint_map_path.string());
    r.pose =
        retarget_bvh_frame(r.skeleton, *r.motion, static_cast<std::size_t>(job.motion_frame), r.joint_map)
            .pose;
  }
  return r;
}

}  // namespace drape
