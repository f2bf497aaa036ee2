// Rig stage of `drape dress`: the body's skeleton and weights, the pose of a
// motion frame, and the pose with the arms raised that the garment is sewn in
// (dress_stages.h).

#include <algorithm>

#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/core/sha256.h"
#include "drape/pipeline/body_rigging.h"
#include "drape/pipeline/dress_stages.h"
#include "drape/rig/arm_raise.h"

namespace drape {

bool dresses_with_arms_raised(const DressJob& job) {
  return job.dressing_arm_angle && (!job.skeleton_path.empty() || !job.skeleton_candidates.empty());
}

std::optional<DressRig> rig_dress_body(const DressJob& job, const DressInputs& in) {
  const bool arms_raised = dresses_with_arms_raised(job);
  if (job.skeleton_path.empty() && job.motion_path.empty() && !arms_raised) return std::nullopt;
  DressRig r;
  r.skeleton_path = job.skeleton_path;
  if (!job.motion_path.empty()) {
    const std::string text = read_file(job.motion_path);
    in.hashes.add(job.motion_path, sha256_hex(text));
    r.motion = parse_bvh(text, job.motion_path.string());
    if (static_cast<std::size_t>(job.motion_frame) >= r.motion->frame_count())
      throw InvalidInput(job.motion_path.string(), 0,
                         "--frame " + std::to_string(job.motion_frame) + " out of range (" +
                             std::to_string(r.motion->frame_count()) + " frames, first is 0)");
  }
  // Each rig file read once: the job's body, when loaded as a template body
  // would be, stands in for the template body at the same path.
  RigFiles files;
  if (!job.body_group && !job.body_unit && !job.body_up && !job.body_front)
    files.add_body(job.body_path, in.body);
  else
    files.add_dressed_body(job.body_path, in.body);  // its own skin in the frame the user gave
  // No skeleton given: a glTF body's own skin, else a candidate.
  const TemplateRig tr =
      !r.skeleton_path.empty()
          ? load_template_rig(r.skeleton_path, job.template_body_path, job.weights_path, &files)
          : default_template_rig(job.body_path, job.skeleton_candidates, r.motion ? &*r.motion : nullptr,
                                 job.template_body_path, job.weights_path, r.skeleton_path, &files);
  for (const std::filesystem::path& p : {r.skeleton_path, job.template_body_path, job.weights_path})
    if (const std::string h = files.sha256(p); !h.empty()) in.hashes.add(p, h);
  RiggedBody rb = rig_body(tr, *in.body_tree, in.body.all_vertices);
  r.skeleton = std::move(rb.skeleton);
  r.body_weights = std::move(rb.weights);
  r.method = std::move(rb.method);
  r.pose = Pose::identity(r.skeleton.size());
  if (arms_raised) {
    // Only when an arm hangs lower than that: a body already in a T-pose is sewn as it stands.
    const UpperArms arms = find_upper_arms(r.skeleton);
    if (arms.left >= 0 && arms.right >= 0 &&
        std::max(arm_angle_below_horizontal(r.skeleton, arms.left),
                 arm_angle_below_horizontal(r.skeleton, arms.right)) > *job.dressing_arm_angle + 5)
      r.dressing_pose = arms_raised_pose(r.skeleton, *job.dressing_arm_angle);
  }
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
