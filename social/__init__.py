"""The people around the board: follows and blocks, direct challenges, notifications
(live over one socket per signed-in page, and by mail) and who is online."""
