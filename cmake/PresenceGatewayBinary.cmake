# Tests and benchmarks that start the real gateway process find it through the
# PRESENCE_MOCK_SERVER definition (its path in this build tree) and must build after it.
function(presence_uses_gateway_binary target)
    add_dependencies(${target} presence-mock-server)
    target_compile_definitions(${target} PRIVATE
        PRESENCE_MOCK_SERVER="$<TARGET_FILE:presence-mock-server>")
endfunction()
