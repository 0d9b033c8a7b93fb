# README's Layout section is where a newcomer finds a folder or a script: fail when a folder of
# the repository's top level, lib/ or app/ is missing from it, when a tests/ folder is not named
# in it, or when a file of scripts/ has no line of its own there ("  NAME  what it does").
# Run as: cmake -DSOURCE_DIR=... -P check_readme_layout.cmake
cmake_policy(VERSION 3.25)

file(READ "${SOURCE_DIR}/README.md" readme)
string(FIND "${readme}" "\n## Layout\n" start)
if(start EQUAL -1)
    message(FATAL_ERROR "README.md has no '## Layout' section")
endif()
string(SUBSTRING "${readme}" ${start} -1 layout)
# Up to the next section.
string(SUBSTRING "${layout}" 1 -1 rest)
string(FIND "${rest}" "\n## " end)
string(SUBSTRING "${rest}" 0 ${end} layout)

set(missing "")
# Top-level folders, and those of lib/ and app/: each as "PATH/" at the start of a line.
file(GLOB top LIST_DIRECTORIES true RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/*")
file(GLOB libraries LIST_DIRECTORIES true RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/lib/*")
file(GLOB app_folders LIST_DIRECTORIES true RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/app/*")
foreach(folder IN LISTS top libraries app_folders)
    # Not the repository's own folder (.git is a folder in a clone, a file in a worktree), nor
    # what .gitignore keeps out of it.
    if(NOT IS_DIRECTORY "${SOURCE_DIR}/${folder}" OR folder MATCHES "^(build.*|lib|out|\\.git|\\.cache)$")
        continue()
    endif()
    if(NOT layout MATCHES "\n${folder}/")
        string(APPEND missing "\n  the folder ${folder}/")
    endif()
endforeach()
# tests/: each folder named somewhere in the section (the suites are listed by name).
file(GLOB test_folders LIST_DIRECTORIES true RELATIVE "${SOURCE_DIR}/tests" "${SOURCE_DIR}/tests/*")
foreach(folder IN LISTS test_folders)
    if(IS_DIRECTORY "${SOURCE_DIR}/tests/${folder}" AND NOT layout MATCHES "[ (]${folder}[/ ,)]")
        string(APPEND missing "\n  the test folder tests/${folder}")
    endif()
endforeach()
# scripts/: each file on a line of its own with what it does.
file(GLOB scripts RELATIVE "${SOURCE_DIR}/scripts" "${SOURCE_DIR}/scripts/*")
foreach(script IN LISTS scripts)
    string(REPLACE "." "\\." pattern "${script}")
    if(NOT layout MATCHES "\n  ${pattern}  +[^ \n]")
        string(APPEND missing "\n  the script scripts/${script}")
    endif()
endforeach()

if(missing)
    message(FATAL_ERROR "README.md's Layout section does not list:${missing}")
endif()
message(STATUS "README's Layout lists every folder and script")
