# Sourced by the scripts: puts the Swift toolchain on PATH and moves to the repository root.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[[ -x /opt/swift/usr/bin/swift ]] && export PATH="/opt/swift/usr/bin:$PATH"
export GLASSES_AUDIO_PROFILES="${GLASSES_AUDIO_PROFILES:-$PWD/profiles}"
