# update/stage.py on its own: what it keeps in step with other modules without importing them.
from store import space
from update import stage


def test_an_update_leaves_the_running_game_and_a_new_one_their_flash():
    # stage.py holds the reserve as its own constant (importing store/space.py costs the
    # update's heap); it must stay what the storage code keeps back.
    assert stage.RESERVE == space.RUNNING + space.NEW_GAME
