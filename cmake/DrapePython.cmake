# Finds Debian's python3 (never a pyenv or venv interpreter on PATH) and
# pybind11; sets DRAPE_PYTHON_FOUND and compiles every library PIC so the
# module libraries can be linked into the Python extension.
set(DRAPE_PYTHON_FOUND OFF)
if(DRAPE_SANITIZE)
  # A sanitized extension cannot be loaded into a python3 built without the
  # ASan runtime, so the sanitizer build (scripts/test-asan) leaves it out.
  message(STATUS "drape: the Python module is skipped under sanitizers")
  return()
endif()
if(NOT DEFINED Python_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "Python interpreter for the drape module")
endif()
find_package(Python 3.9 COMPONENTS Interpreter Development.Module QUIET)
if(NOT Python_FOUND)
  message(STATUS "drape: Python headers not found (python3-dev); the Python module is skipped")
  return()
endif()
set(PYBIND11_FINDPYTHON ON)
find_package(pybind11 2.6 CONFIG QUIET)
if(NOT pybind11_FOUND)
  message(STATUS "drape: pybind11 not found (pybind11-dev); the Python module is skipped")
  return()
endif()
message(STATUS "drape: Python module for ${Python_EXECUTABLE} (pybind11 ${pybind11_VERSION})")
set(DRAPE_PYTHON_FOUND ON)
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
# -fPIC alone would stop GCC inlining global functions within a file (they
# could be interposed); nothing in drape relies on interposition.
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  add_compile_options(-fno-semantic-interposition)
endif()
